interface MeterProps {
  /** 0…1; clamped. */
  value: number
  label: string
  title?: string
  testId?: string
}

/** A thin horizontal gauge that turns amber, then red, as it fills. */
export function Meter({ value, label, title, testId }: MeterProps) {
  const clamped = Math.max(0, Math.min(1, value))
  const level = clamped > 0.9 ? 'high' : clamped > 0.7 ? 'mid' : 'low'
  return (
    <span className={`meter meter-${level}`} title={title} data-testid={testId}>
      <span className="meter-track" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(clamped * 100)} aria-label={label}>
        <span className="meter-fill" style={{ width: `${clamped * 100}%` }} />
      </span>
      <span className="meter-label">{label}</span>
    </span>
  )
}
