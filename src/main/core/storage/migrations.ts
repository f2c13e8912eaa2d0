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
]
