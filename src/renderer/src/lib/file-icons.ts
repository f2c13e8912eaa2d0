import type { IconName } from '../components/Icon'

/** A file's icon: a codicon glyph and the colour that tells its language at a glance. */
export interface FileIconSpec {
  icon: IconName
  /** A CSS colour; languages get the hue their own branding or VS Code's default theme uses. */
  color: string
}

const CODE = (color: string): FileIconSpec => ({ icon: 'file-code', color })

/** Whole file names first (they say more than an extension: `package.json` is not any JSON). */
const BY_NAME: Record<string, FileIconSpec> = {
  'package.json': { icon: 'package', color: '#cb3837' },
  'package-lock.json': { icon: 'lock', color: '#8a8a8a' },
  'pnpm-lock.yaml': { icon: 'lock', color: '#8a8a8a' },
  'yarn.lock': { icon: 'lock', color: '#8a8a8a' },
  'cargo.lock': { icon: 'lock', color: '#8a8a8a' },
  'cargo.toml': { icon: 'package', color: '#dea584' },
  'go.mod': { icon: 'package', color: '#00add8' },
  dockerfile: { icon: 'gear', color: '#2496ed' },
  makefile: { icon: 'terminal', color: '#6d8086' },
  license: { icon: 'law', color: '#d0a020' },
  'license.md': { icon: 'law', color: '#d0a020' },
  '.gitignore': { icon: 'git-branch', color: '#f05033' },
  '.gitattributes': { icon: 'git-branch', color: '#f05033' },
  '.env': { icon: 'key', color: '#c9a600' },
  'tsconfig.json': { icon: 'gear', color: '#3178c6' },
  'hotaru.json': { icon: 'settings-gear', color: '#e67e22' },
  'hotaru.jsonc': { icon: 'settings-gear', color: '#e67e22' },
}

const BY_EXTENSION: Record<string, FileIconSpec> = {
  ts: CODE('#3178c6'),
  tsx: CODE('#3178c6'),
  mts: CODE('#3178c6'),
  cts: CODE('#3178c6'),
  js: CODE('#d4b400'),
  jsx: CODE('#d4b400'),
  mjs: CODE('#d4b400'),
  cjs: CODE('#d4b400'),
  py: { icon: 'python', color: '#3572a5' },
  rb: { icon: 'ruby', color: '#cc342d' },
  go: CODE('#00add8'),
  rs: CODE('#dea584'),
  java: CODE('#b07219'),
  kt: CODE('#a97bff'),
  swift: CODE('#f05138'),
  c: CODE('#6e7781'),
  h: CODE('#6e7781'),
  cpp: CODE('#f34b7d'),
  cc: CODE('#f34b7d'),
  hpp: CODE('#f34b7d'),
  cs: CODE('#178600'),
  php: CODE('#777bb4'),
  lua: CODE('#000080'),
  vue: CODE('#41b883'),
  svelte: CODE('#ff3e00'),
  html: { icon: 'globe', color: '#e34c26' },
  htm: { icon: 'globe', color: '#e34c26' },
  css: { icon: 'symbol-color', color: '#563d7c' },
  scss: { icon: 'symbol-color', color: '#c6538c' },
  less: { icon: 'symbol-color', color: '#1d365d' },
  json: { icon: 'json', color: '#cbb000' },
  jsonc: { icon: 'json', color: '#cbb000' },
  yaml: { icon: 'gear', color: '#cb171e' },
  yml: { icon: 'gear', color: '#cb171e' },
  toml: { icon: 'gear', color: '#9c4221' },
  ini: { icon: 'gear', color: '#6d8086' },
  xml: CODE('#0060ac'),
  md: { icon: 'markdown', color: '#519aba' },
  mdx: { icon: 'markdown', color: '#519aba' },
  txt: { icon: 'file', color: '#8a8a8a' },
  sh: { icon: 'terminal', color: '#4eaa25' },
  bash: { icon: 'terminal', color: '#4eaa25' },
  zsh: { icon: 'terminal', color: '#4eaa25' },
  ps1: { icon: 'terminal', color: '#012456' },
  sql: { icon: 'database', color: '#e38c00' },
  db: { icon: 'database', color: '#8a8a8a' },
  sqlite: { icon: 'database', color: '#8a8a8a' },
  ipynb: { icon: 'notebook', color: '#f37626' },
  png: { icon: 'file-media', color: '#a074c4' },
  jpg: { icon: 'file-media', color: '#a074c4' },
  jpeg: { icon: 'file-media', color: '#a074c4' },
  gif: { icon: 'file-media', color: '#a074c4' },
  webp: { icon: 'file-media', color: '#a074c4' },
  svg: { icon: 'file-media', color: '#ffb13b' },
  ico: { icon: 'file-media', color: '#a074c4' },
  pdf: { icon: 'file-pdf', color: '#d32f2f' },
  zip: { icon: 'file-zip', color: '#8a8a8a' },
  gz: { icon: 'file-zip', color: '#8a8a8a' },
  tgz: { icon: 'file-zip', color: '#8a8a8a' },
  tar: { icon: 'file-zip', color: '#8a8a8a' },
  wasm: { icon: 'file-binary', color: '#654ff0' },
  lock: { icon: 'lock', color: '#8a8a8a' },
  pem: { icon: 'key', color: '#c9a600' },
  key: { icon: 'key', color: '#c9a600' },
}

const PLAIN: FileIconSpec = { icon: 'file', color: 'var(--fg-muted)' }

/**
 * The icon of a file by its name: known file names (package.json, Dockerfile…), then the extension, then a
 * plain page. `.env.local` and the like count as `.env`.
 */
export function fileIcon(path: string): FileIconSpec {
  const name = (path.slice(path.lastIndexOf('/') + 1) || path).toLowerCase()
  const named = BY_NAME[name] ?? (name.startsWith('.env') ? BY_NAME['.env'] : undefined)
  if (named) return named
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return PLAIN
  return BY_EXTENSION[name.slice(dot + 1)] ?? PLAIN
}

/** A folder's icon, open or closed. */
export function folderIcon(open: boolean): FileIconSpec {
  return { icon: open ? 'folder-opened' : 'folder', color: '#c09553' }
}
