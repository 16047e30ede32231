import { useEffect, useRef, useSyncExternalStore } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

/**
 * The overview's charts, drawn by uPlot (docs/decisions/0010-admin-charts.md) on a canvas. This
 * module is loaded lazily by the overview page only: uPlot never reaches another page's bundle.
 * The canvas is hidden from assistive technology; the page gives every chart a summary and a table.
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

// The colour mode is a class on <html> (lib/theme.ts): a change redraws the chart in its colours.
const subscribeToMode = (onChange: () => void) => {
  const observer = new MutationObserver(onChange)
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
  return () => observer.disconnect()
}
const isDark = () => document.documentElement.classList.contains('dark')

interface Palette {
  mark: string
  text: string
  grid: string
  font: string
}

/** The page's colours (the CSS variables of styles.css), as the canvas needs them: resolved. */
function paletteOf(element: HTMLElement, kind: ChartProps['kind']): Palette {
  const style = getComputedStyle(element)
  const color = (name: string) => style.getPropertyValue(name).trim()
  return {
    mark: color(kind === 'bars' ? '--primary' : '--secondary'),
    text: color('--muted-foreground'),
    grid: color('--border'),
    font: style.fontFamily,
  }
}

/** Whole-number steps for counts: 1, 2, 5, 10, 20, 50… */
const countSteps = Array.from({ length: 8 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat()

/** Label every `n`th point so that the labels under the x axis do not run into each other. */
function labelEvery(plot: uPlot, labels: readonly string[]): number {
  const widest = Math.max(...labels.map((label) => label.length), 1)
  const room = plot.bbox.width / uPlot.pxRatio / Math.max(labels.length, 1)
  return Math.max(1, Math.ceil((widest * FONT_SIZE * 0.6 + 12) / room))
}

/** The count above each bar, in the text colour. */
function drawBarValues(plot: uPlot, values: readonly number[], palette: Palette, formatNumber: (n: number) => string) {
  const { ctx } = plot
  ctx.save()
  ctx.fillStyle = palette.text
  ctx.font = `${Math.round(FONT_SIZE * uPlot.pxRatio)}px ${palette.font}`
  ctx.textAlign = 'center'
  ctx.textBaseline = 'bottom'
  values.forEach((value, index) => {
    ctx.fillText(
      formatNumber(value),
      plot.valToPos(index, 'x', true),
      plot.valToPos(value, 'y', true) - 4 * uPlot.pxRatio,
    )
  })
  ctx.restore()
}

function optionsOf({ kind, labels, values, formatNumber }: ChartProps, palette: Palette, width: number): uPlot.Options {
  const font = `${FONT_SIZE}px ${palette.font}`
  const max = Math.max(...values, 1)
  const axis = { stroke: palette.text, font, grid: { stroke: palette.grid, width: 1 }, ticks: { show: false } }
  const widestValue = formatNumber(max).length
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      // Half a step of room at either end: the first and last labels stay inside the chart.
      x: { time: false, range: () => [-0.5, labels.length - 0.5] },
      // Room above the highest bar for its count.
      y: { range: () => [0, kind === 'bars' ? max * 1.2 : max * 1.1] },
    },
    axes: [
      {
        ...axis,
        grid: { show: false },
        splits: () => labels.map((_, index) => index),
        filter: (plot, splits) => {
          const every = labelEvery(plot, labels)
          return splits.map((split) => (split % every === 0 ? split : null))
        },
        values: (_plot, splits) => splits.map((split) => labels[split] ?? ''),
      },
      {
        ...axis,
        incrs: countSteps,
        size: widestValue * FONT_SIZE * 0.6 + 16,
        values: (_plot, splits) => splits.map((split) => formatNumber(split)),
      },
    ],
    series: [
      {},
      kind === 'bars'
        ? { fill: palette.mark, stroke: palette.mark, paths: uPlot.paths.bars?.({ size: [0.6, 72] }), points: { show: false } }
        : { stroke: palette.mark, width: 2, points: { show: true, size: 7, fill: palette.mark, stroke: palette.mark } },
    ],
    hooks: kind === 'bars' ? { draw: [(plot) => drawBarValues(plot, values, palette, formatNumber)] } : {},
  }
}

/** A bar or line chart as wide as its container, redrawn when the colour mode or the data change. */
export default function Chart(props: ChartProps) {
  const { kind, labels, values, formatNumber } = props
  const box = useRef<HTMLDivElement>(null)
  const dark = useSyncExternalStore(subscribeToMode, isDark)

  useEffect(() => {
    const element = box.current
    if (!element) return
    const chart = { kind, labels, values, formatNumber }
    const plot = new uPlot(
      optionsOf(chart, paletteOf(element, kind), element.clientWidth),
      [labels.map((_, index) => index), [...values]],
      element,
    )
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [kind, labels, values, formatNumber, dark])

  return <div ref={box} aria-hidden="true" className="h-60 w-full overflow-hidden" />
}
