"""The pages of a concours, one module a topic: the organiser's desk (`desk`: the list, the
settings, the desk's page, finishing, the co-organiser link), its registration (`entrants`), its
rounds (`rounds`), its tables (`tables`: paper totals, time called, corrections, a new phone
link), the paper it prints (`prints`), its files (`records`), a table's phone (`table_phone`),
the public pages (`public`), and teams registering themselves (issue 45: the Register form and
a team's private link, `register`; the desk's answers and check-in by code, `registrations`).
No view module imports another: what they share is in `concours/view_helpers.py` (the desk's),
`concours/phones.py` (a table's phone), `access.py` and `words.py`."""
