// Chaos suite: startup (filled by the change that adds its cases).
