/** The ▸/▾ mark of a collapsible row (drawn in CSS so it rotates). */
export function Twisty({ open }: { open: boolean }) {
  return <span className={`twisty ${open ? 'open' : 'closed'}`} aria-hidden />
}
