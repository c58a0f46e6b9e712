"""The language-free graph model: CFG types, jump frames, dominance, reaching definitions, labels."""
