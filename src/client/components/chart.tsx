import { useEffect, useRef, useState } from 'react'

/**
 * The charts of the admin overview and of /progress, drawn as SVG by this module
 * (docs/decisions/0020-admin-charts-svg.md: uPlot was 23 KB gzip of the page's first visit for two
 * kinds of chart). The colours are the page's own classes, so the colour mode needs no redraw. The
 * drawing is hidden from assistive technology; the page gives every chart a summary and a table.
 */
export interface ChartProps {
  kind: 'bars' | 'line'
  /** One label per point, under the x axis (level codes, weeks). */
  labels: readonly string[]
  values: readonly number[]
  formatNumber: (value: number) => string
}

const HEIGHT = 240
const FONT_SIZE = 12
/** Room under the plot for the labels of the x axis, and above it for the highest count. */
const X_AXIS = 28
const TOP = 8
/** A rough width of a character at FONT_SIZE, to keep labels apart. */
const CHAR_WIDTH = FONT_SIZE * 0.6

/** Whole-number steps for counts: 1, 2, 5, 10, 20, 50… */
const countSteps = Array.from({ length: 8 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat()

/** The step of the y axis: the smallest that gives at most five lines above zero. */
const stepFor = (top: number) => countSteps.find((step) => top / step <= 5) ?? countSteps.at(-1) ?? 1

/** A bar or line chart as wide as its container (a `ResizeObserver` gives it the width). */
export function Chart({ kind, labels, values, formatNumber }: ChartProps) {
  const box = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const element = box.current
    if (!element) return
    const resize = new ResizeObserver(() => setWidth(element.clientWidth))
    resize.observe(element)
    return () => resize.disconnect()
  }, [])

  const max = Math.max(...values, 1)
  // Room above the highest bar for its count.
  const top = kind === 'bars' ? max * 1.2 : max * 1.1
  const step = stepFor(top)
  const ticks = Array.from({ length: Math.floor(top / step) + 1 }, (_, index) => index * step)
  const left = formatNumber(max).length * CHAR_WIDTH + 16
  const bottom = HEIGHT - X_AXIS
  const y = (value: number) => bottom - (value / top) * (bottom - TOP)
  // Half a slot of room at either end: the first and last labels stay inside the chart.
  const slot = Math.max(width - left - 8, 0) / Math.max(labels.length, 1)
  const x = (index: number) => left + (index + 0.5) * slot
  const widestLabel = Math.max(...labels.map((label) => label.length), 1)
  // Every `n`th label, so that the labels under the x axis do not run into each other.
  const labelEvery = Math.max(1, Math.ceil((widestLabel * CHAR_WIDTH + 12) / Math.max(slot, 1)))
  const barWidth = Math.min(slot * 0.6, 72)
  // A count over each bar when it fits its slot (90 days of bars on a phone leave no room: the
  // axis and the table say them).
  const countsFit = slot >= formatNumber(max).length * CHAR_WIDTH + 4

  return (
    <div ref={box} aria-hidden="true" className="h-60 w-full overflow-hidden">
      {width > 0 && (
        <svg width={width} height={HEIGHT} className="fill-muted-foreground text-xs tabular-nums">
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={left} x2={width - 8} y1={y(tick)} y2={y(tick)} className="stroke-border" />
              <text x={left - 8} y={y(tick)} textAnchor="end" dominantBaseline="middle">
                {formatNumber(tick)}
              </text>
            </g>
          ))}
          {labels.map((label, index) =>
            index % labelEvery === 0 ? (
              // Labels are positional: their index is their key.
              <text key={index} x={x(index)} y={bottom + 18} textAnchor="middle">
                {label}
              </text>
            ) : null,
          )}
          {kind === 'bars' ? (
            values.map((value, index) => (
              <g key={index}>
                <rect x={x(index) - barWidth / 2} y={y(value)} width={barWidth} height={bottom - y(value)} className="fill-primary" />
                {countsFit && (
                  <text x={x(index)} y={y(value) - 4} textAnchor="middle">
                    {formatNumber(value)}
                  </text>
                )}
              </g>
            ))
          ) : (
            <g className="fill-secondary stroke-secondary">
              <polyline
                points={values.map((value, index) => `${x(index)},${y(value)}`).join(' ')}
                fill="none"
                strokeWidth={2}
              />
              {values.map((value, index) => (
                <circle key={index} cx={x(index)} cy={y(value)} r={3.5} />
              ))}
            </g>
          )}
        </svg>
      )}
    </div>
  )
}
