"""Reading pairs and writing results: line-aligned files, JSONL and stdin; table, JSON, JSONL
and CSV writers; the bundled trivially shared n-gram sets."""
