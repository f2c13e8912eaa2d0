/** Variables a sandboxed command never gets: provider keys and anything named like a secret. */
const SECRET_NAME = /(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY|ACCESS_KEY)($|_)|^(ANTHROPIC|OPENAI|OPENROUTER|DEEPSEEK|MOONSHOT|GEMINI|GOOGLE_API|AZURE_OPENAI)_/i

/** Names always dropped: config that may carry keys, and the agent socket (its folder is hidden anyway). */
const DROPPED = new Set(['HOTARU_CONFIG_CONTENT', 'SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'DBUS_SESSION_BUS_ADDRESS'])

/** True when a variable of this name is kept from sandboxed commands. */
export function isSecretEnvName(name: string): boolean {
  return DROPPED.has(name) || SECRET_NAME.test(name)
}

/** The environment without secrets, and the names that were dropped (for the tool card). */
export function scrubEnv(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; dropped: string[] } {
  const out: NodeJS.ProcessEnv = {}
  const dropped: string[] = []
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (isSecretEnvName(name)) dropped.push(name)
    else out[name] = value
  }
  return { env: out, dropped }
}
