import { encode } from 'uqr'

/** A QR code drawn as one SVG path (no canvas, no HTML injection). */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, data } = encode(value, { border: 2 })
  const path = data
    .flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')))
    .join('')
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="size-48 rounded-md bg-white"
    >
      <path d={path} fill="#000" />
    </svg>
  )
}
