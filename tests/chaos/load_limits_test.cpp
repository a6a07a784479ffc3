// Chaos suite: load_limits (filled by the change that adds its cases).
