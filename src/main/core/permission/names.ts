/** Permissions that are not tool ids. */
export const Permission = {
  Bash: 'bash',
  /** write, edit, multiedit and apply_patch all ask for `edit` with the file path as pattern. */
  Edit: 'edit',
  Read: 'read',
  List: 'list',
  Glob: 'glob',
  Grep: 'grep',
  WebFetch: 'webfetch',
  /**
   * A web search run by the model's provider. Pattern: each domain the search is limited to,
   * or `*` for a search of the whole web; a result's host (and its parent domains) for deny rules.
   */
  WebSearch: 'websearch',
  Task: 'task',
  ExternalDirectory: 'external_directory',
  DoomLoop: 'doom_loop',
  /** The read-only `lsp` tool (definitions, references, hover, symbols); allowed by default. */
  Lsp: 'lsp',
  /** A host outside `sandbox.network.allowedDomains`, reached by a sandboxed command; pattern: the host. */
  SandboxNetwork: 'sandbox_network',
  /** One bash command re-run outside the OS sandbox; never remembered. */
  BashUnsandboxed: 'bash_unsandboxed',
  /**
   * The preview tools (start the dev server, look at and drive its page); asks by default. Pattern: the
   * launch configuration for `preview_start`, the URL for `preview_navigate`, `*` for the rest.
   */
  Preview: 'preview',
} as const

/** Where plan-mode agents keep their plan, relative to the project root. */
export const PLAN_DIR = '.hotaru/plans'
