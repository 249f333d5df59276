"""Live pages (issue 43): Server-Sent Events that tell a page its copy is behind.

A *topic* is what a live element follows: `m12` (match 12: its version), `c3` (concours 3: its
change key, every deal at its tables included), `t3` (concours 3: its version, what its
standings count), `r7` (round 7: its clock and state), `j5` (job 5: its state and progress). A
topic's *version* is a string read from the database (`settings.LIVE_TOPICS` names the function
of each kind, one query for a batch of ids); an element renders the version it shows.

- A write moves a version in its own transaction; the database's triggers (migration
  web/0002_live) then tell every server: PostgreSQL by NOTIFY on commit, SQLite by a row in
  `LiveChange`. Nothing in the app calls "notify": no write can forget to.
- Each process that serves streams holds one `Hub` (hub.py): ONE listening connection (or one
  small query every LIVE_POLL_SECONDS over LiveChange on SQLite), reads each changed topic's
  version once, and hands it to every stream following it.
- A stream (views.stream, an async view under an ASGI server) subscribes BEFORE it reads the
  versions, then sends at once every topic whose version differs from what the page holds
  (`?v=` at first, `Last-Event-ID` on a reconnect): a viewer coming back misses nothing.
- The page (static/js/live.js) then asks its fragment again (one GET, with its ETag as a poll
  does). Without the script or the stream, the element's poll goes on as before."""
