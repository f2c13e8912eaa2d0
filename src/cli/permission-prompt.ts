import { createInterface } from 'node:readline/promises'
import type { Services } from '../main/core/services'
import type { PendingPermission, PermissionReply } from '../main/core/permission'
import type { PendingQuestion } from '../main/core/agent/questions'

export type AskMode = 'yes' | 'tty' | 'reject'

const NO_USER =
  'No one can answer permission requests in this run (non-interactive, without --yes). ' +
  'The action was not performed; continue without it or explain what you would need.'

/**
 * Answers the permission asks and questions of a CLI run: `--yes` allows each
 * ask once, a TTY asks the user, otherwise asks are rejected with a message the
 * model can act on (and a note on stderr). Questions without a TTY are dismissed.
 */
export function answerPermissions(services: Services, options: { sessionId: string; mode: AskMode; format: 'text' | 'json' }): () => void {
  let queue = Promise.resolve()
  const serial = (task: () => Promise<void>): void => {
    queue = queue.then(task).catch((error: unknown) => {
      process.stderr.write(`hotaru run: could not answer a request: ${(error as Error).message}\n`)
    })
  }
  const reply = async (ask: PendingPermission, answer: PermissionReply): Promise<void> => {
    await services.permissions.reply(ask.id, answer)
  }
  const permissionAsks = services.permissions.onEvent((event) => {
    if (event.type !== 'asked') return
    const ask = event.request
    serial(async () => {
      if (options.mode === 'yes') return reply(ask, { reply: 'once' })
      if (options.mode === 'reject') {
        process.stderr.write(`✗ permission needed for ${ask.permission}: ${ask.title} (rejected: run with --yes or in a terminal)\n`)
        return reply(ask, { reply: 'reject', feedback: NO_USER })
      }
      return reply(ask, await promptPermission(ask))
    })
  })
  services.questions.answerable = options.mode === 'tty'
  const questionAsks = services.questions.onEvent((event) => {
    if (event.type !== 'asked') return
    const question = event.question
    serial(async () => {
      if (options.mode !== 'tty') {
        process.stderr.write(`✗ the agent asked a question nobody can answer here: ${question.questions[0]?.question ?? ''}\n`)
        services.questions.dismiss(question.id)
        return
      }
      services.questions.answer(question.id, await promptQuestion(question))
    })
  })
  return () => {
    permissionAsks.dispose()
    questionAsks.dispose()
  }
}

async function promptPermission(ask: PendingPermission): Promise<PermissionReply> {
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    process.stderr.write(`\n? ${ask.permission}: ${ask.title}\n`)
    if (ask.patterns.length > 0) process.stderr.write(`  ${ask.patterns.join('\n  ')}\n`)
    // A forced ask: the checker could not see what the line does; say why before the user decides.
    const reason = ask.metadata?.reason
    if (ask.forceAsk && typeof reason === 'string') process.stderr.write(`  ! not fully checkable: ${reason}\n`)
    const canAlways = ask.always.length > 0
    const choices = canAlways ? '[o]nce, [a]lways (' + ask.always.join(', ') + '), [r]eject' : '[o]nce, [r]eject'
    for (;;) {
      const answer = (await rl.question(`  allow? ${choices}: `)).trim().toLowerCase()
      if (answer === 'o' || answer === 'once' || answer === 'y' || answer === 'yes') return { reply: 'once' }
      if (canAlways && (answer === 'a' || answer === 'always')) return { reply: 'always', scope: 'session' }
      if (answer === 'r' || answer === 'reject' || answer === 'n' || answer === 'no') {
        const feedback = (await rl.question('  tell the agent why (optional, Enter to stop the turn): ')).trim()
        return feedback ? { reply: 'reject', feedback } : { reply: 'reject' }
      }
    }
  } finally {
    rl.close()
  }
}

async function promptQuestion(pending: PendingQuestion): Promise<string[][]> {
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answers: string[][] = []
    for (const q of pending.questions) {
      process.stderr.write(`\n? ${q.question}\n`)
      q.options.forEach((o, i) => process.stderr.write(`  ${i + 1}. ${o.label}${o.description ? ` — ${o.description}` : ''}\n`))
      const raw = (await rl.question(`  choose ${q.multiple ? 'numbers separated by commas' : 'a number'} or type an answer: `)).trim()
      const picks = raw
        .split(',')
        .map((s) => Number(s.trim()))
        .filter((n) => Number.isInteger(n) && n >= 1 && n <= q.options.length)
      answers.push(picks.length > 0 ? picks.map((n) => q.options[n - 1]?.label ?? '') : [raw])
    }
    return answers
  } finally {
    rl.close()
  }
}
