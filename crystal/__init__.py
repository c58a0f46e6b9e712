"""crystal: language-agnostic code tokens, n-gram statistics, BLEU and CrystalBLEU."""
