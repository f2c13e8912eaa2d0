/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many
 * ran. Append only: never edit a migration that has shipped.
 */
export const migrations: readonly string[] = [
  /* 1: projects and key/value settings */ `
  CREATE TABLE projects (
    id              TEXT PRIMARY KEY,
    root            TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    last_opened_at  INTEGER NOT NULL
  );
  CREATE INDEX projects_last_opened ON projects(last_opened_at DESC);
  CREATE TABLE kv (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_at  INTEGER NOT NULL
  );
  `,
  /* 2: sessions, messages and their parts */ `
  CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    parent_id   TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    title       TEXT NOT NULL,
    agent       TEXT NOT NULL,
    model       TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
  );
  CREATE INDEX sessions_project ON sessions(project_id, updated_at DESC);
  CREATE TABLE messages (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    data        TEXT NOT NULL
  );
  CREATE INDEX messages_session ON messages(session_id, created_at, id);
  CREATE TABLE parts (
    id          TEXT PRIMARY KEY,
    message_id  TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    session_id  TEXT NOT NULL,
    position    INTEGER NOT NULL,
    data        TEXT NOT NULL
  );
  CREATE INDEX parts_message ON parts(message_id, position);
  CREATE INDEX parts_session ON parts(session_id);
  CREATE TABLE permission_approvals (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    permission  TEXT NOT NULL,
    pattern     TEXT NOT NULL,
    action      TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    UNIQUE(project_id, permission, pattern)
  );
  `,
  /* 3: checkpoints of the session timeline */ `
  CREATE TABLE checkpoints (
    id           TEXT PRIMARY KEY,
    project_id   TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    session_id   TEXT REFERENCES sessions(id) ON DELETE SET NULL,
    message_id   TEXT,
    snapshot_id  TEXT NOT NULL,
    trigger      TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    summary      TEXT NOT NULL
  );
  CREATE INDEX checkpoints_project ON checkpoints(project_id, created_at, id);
  CREATE INDEX checkpoints_session ON checkpoints(session_id, created_at, id);
  `,
  /* 4: workspace trust decisions per folder (canonical realpath) */ `
  CREATE TABLE trusted_folders (
    path        TEXT PRIMARY KEY,
    trusted     INTEGER NOT NULL,
    decided_at  INTEGER NOT NULL
  );
  `,
  /* 5: worktrees of a project: each is a project of its own (project_id) made from its main project (parent_id) */ `
  CREATE TABLE worktrees (
    project_id    TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    parent_id     TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL,
    branch        TEXT,
    path          TEXT NOT NULL,
    base          TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    merged_at     INTEGER,
    merged_state  TEXT,
    UNIQUE(parent_id, name)
  );
  `,
  /* 6: each worktree's block of TCP ports (port_first..port_first+9); blocks are aligned, so unique firsts never overlap */ `
  ALTER TABLE worktrees ADD COLUMN port_first INTEGER;
  CREATE UNIQUE INDEX worktrees_port_first ON worktrees(port_first);
  `,
  /* 7: checkpoints that hold only some paths (a JSON list; NULL: the whole tree) */ `
  ALTER TABLE checkpoints ADD COLUMN scope TEXT;
  `,
  /* 8: the reasoning effort chosen for a session (NULL: config or the model's default) */ `
  ALTER TABLE sessions ADD COLUMN effort TEXT;
  `,
  /* 9: images attached to messages, as raw bytes (parts hold only their metadata and id) */ `
  CREATE TABLE images (
    id          TEXT PRIMARY KEY,
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    message_id  TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    media_type  TEXT NOT NULL,
    data        BLOB NOT NULL
  );
  CREATE INDEX images_message ON images(message_id);
  `,
  /* 10: the process running a turn in a session, so two processes never write one session at once */ `
  CREATE TABLE session_locks (
    session_id  TEXT PRIMARY KEY,
    project_id  TEXT NOT NULL,
    owner       TEXT NOT NULL,
    pid         INTEGER NOT NULL,
    host        TEXT NOT NULL,
    label       TEXT NOT NULL,
    since       INTEGER NOT NULL,
    heartbeat   INTEGER NOT NULL
  );
  CREATE INDEX session_locks_project ON session_locks(project_id);
  `,
  /* 11: what a checkpoint is about: a step's calls, a message's first line (JSON; NULL in older rows) */ `
  ALTER TABLE checkpoints ADD COLUMN about TEXT;
  `,
]
