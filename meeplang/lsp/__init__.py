"""`meeplang lsp`: a language server for game, variant and included files.

    project      which game a document belongs to, loaded and checked from the editor's buffers
    names        the names a game declares (and the built-in ones), for hover and definitions
    completion   what may be typed where: keys from the schemas, the names that fit in rule text
    words        the rule words: what each says (hover) and which begin a statement
    occurrences  where each declared name stands in a game and its variants: outline,
                 references, rename
    server       the Language Server Protocol over stdio (pygls)
"""
