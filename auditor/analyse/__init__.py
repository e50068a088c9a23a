"""Analysis: absences, mismatches and behavioural-authority paths derived from extracted facts."""
