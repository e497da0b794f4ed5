"""The version of the documents this package describes (independent of the package version).

`schema_version` is "MAJOR.MINOR". Readers accept any document with the same MAJOR; MINOR grows when
fields are added. Major 1 was the manifest of the 0.1 tool; readers translate it (see the store).
"""

SCHEMA_VERSION = "2.9"
SCHEMA_MAJOR = 2
