"""Program dependence graphs: the CFG builder, data flow, canonical names, and the build."""
