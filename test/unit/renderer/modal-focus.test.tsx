// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { Modal } from '../../../src/renderer/src/components/Modal'

afterEach(cleanup)

/** A composer behind the dialog that stops the agent on Escape, as the real one does while a turn runs. */
function Page({ stops, dialogs }: { stops: string[]; dialogs: string[] }) {
  const [open, setOpen] = useState(dialogs)
  return (
    <div>
      <textarea aria-label="Message" onKeyDown={(e) => e.key === 'Escape' && stops.push('stopped')} />
      {open.map((title) => (
        <Modal key={title} title={title} onCancel={() => setOpen((list) => list.filter((t) => t !== title))}>
          <button type="button">{`${title} button`}</button>
        </Modal>
      ))}
    </div>
  )
}

describe('a dialog holds the focus while it is open', () => {
  it('a late focus on the composer behind it comes back, so Escape closes the dialog and stops nothing', () => {
    const stops: string[] = []
    render(<Page stops={stops} dialogs={['Activity']} />)
    expect(document.activeElement).toBe(screen.getByText('Activity button'))
    // E.g. a "focus the composer" scheduled before the dialog opened.
    screen.getByLabelText('Message').focus()
    expect(document.activeElement).toBe(screen.getByText('Activity button'))
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(stops).toEqual([])
    // Closed: the focus is free again.
    screen.getByLabelText('Message').focus()
    expect(document.activeElement).toBe(screen.getByLabelText('Message'))
  })

  it('of two dialogs the top one holds it, against the one under it too; closed, the one under holds it', () => {
    render(<Page stops={[]} dialogs={['Merge', 'Confirm']} />)
    expect(document.activeElement).toBe(screen.getByText('Confirm button'))
    screen.getByText('Merge button').focus()
    expect(document.activeElement).toBe(screen.getByText('Confirm button'))
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' })
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
    screen.getByLabelText('Message').focus()
    expect(document.activeElement).toBe(screen.getByText('Merge button'))
  })

  it('a menu the dialog opens outside its panel may take the focus', () => {
    render(<Page stops={[]} dialogs={['Settings']} />)
    const menu = document.createElement('div')
    menu.setAttribute('role', 'listbox')
    const option = document.createElement('button')
    menu.append(option)
    document.body.append(menu)
    option.focus()
    expect(document.activeElement).toBe(option)
    menu.remove()
  })
})
