"""teach: a web classroom where children learn Go (围棋) by solving capture puzzles."""

__version__ = "0.1.0"
