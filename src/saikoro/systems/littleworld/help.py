"""Help text (Japanese, as BCDice) and the English glossary of 帽子世界TRPG output."""

HELP_MESSAGE = ""
GLOSSARY_EN: dict[str, str] = {}
