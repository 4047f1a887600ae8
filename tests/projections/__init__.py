"""The read side: views, timelines, the game index, reports, the web viewer."""
