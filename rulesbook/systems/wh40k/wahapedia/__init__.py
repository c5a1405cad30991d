"""Importing one faction of Wahapedia's CSV export into the typed values of a faction file."""
