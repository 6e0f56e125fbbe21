"""Playing a game: the room, the commit, the computer players' scheduler and their thinking processes, who sits where, the person's view."""
