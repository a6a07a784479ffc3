// Chaos suite: output_paths (filled by the change that adds its cases).
