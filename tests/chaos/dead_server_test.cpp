// Chaos suite: dead_server (filled by the change that adds its cases).
