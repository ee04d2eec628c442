"""CEL text to AST (lexer, parser, macros), as cel-go's parser does it."""
