// Chaos suite: signals (filled by the change that adds its cases).
