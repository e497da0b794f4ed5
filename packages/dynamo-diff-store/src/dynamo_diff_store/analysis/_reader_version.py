"""The reader version: part of every capture id."""

# Part of every capture id: bump when reading or classification changes what a capture says.
READER_VERSION = "31"
