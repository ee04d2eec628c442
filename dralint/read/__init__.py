"""Reading the input: files, directories and standard input become documents with positions."""
