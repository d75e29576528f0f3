"""The coach: a finished game judged decision by decision, its facts and reasons, hints,
and the one store that looks an analysis up, makes it, and keeps it."""
