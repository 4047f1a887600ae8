"""The Talisman main board and the mechanics every board shares."""
