"""The language-free graph model: CFG types, jumps, dominance, reaching definitions, labels."""
