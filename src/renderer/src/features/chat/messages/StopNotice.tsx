/**
 * Why a step ended other than normally, under its message (see "Stop reasons" in the
 * architecture doc). A refusal's explanation, when the provider gave one, is the message's
 * own note above this line.
 */
const NOTICES: Readonly<Record<string, string>> = {
  length: 'Response cut off at the output limit',
  refusal: 'The model declined this request. The exchange is left out of what the model sees next: rephrase to go on.',
  content_filter: "The provider's content filter stopped this response",
  context_window: 'The context window filled up: the conversation was compacted and the step asked again',
  interrupted: 'The response broke off after a tool call: the calls ran and the turn went on with a new request',
}

export function StopNotice({ finish }: { finish: string | undefined }) {
  const notice = finish === undefined ? undefined : NOTICES[finish]
  if (!notice) return null
  const alert = finish === 'refusal' || finish === 'content_filter' || finish === 'length'
  return (
    <div className={`msg-stop-notice${alert ? ' msg-stop-alert' : ' muted'}`} role="note" data-testid="stop-notice" data-finish={finish}>
      {notice}
    </div>
  )
}
