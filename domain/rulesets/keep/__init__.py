"""The Vampire's Keep (seed `000_…`, house rule H3.18): its board, decks and tables, the `keep-run` game, and
(`main`) the Keep as an expansion of the main board (`--option keep=true`), so the whole expansion lives in
this one folder."""
