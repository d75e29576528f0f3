"""The local app's parts, each with its own job: how a game opens (``opening``), practice
above the analysis board (``board_practice``), drills (``drill_flow``), what could not be
written (``keep_warnings``) and the palette's local commands (``local_commands``). The app
(``solstis_tui.app``) owns one of each."""
