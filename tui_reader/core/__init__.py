"""The reader's core: loading, the store, search and links. Imports no Textual."""
