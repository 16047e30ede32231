/** "Firefox on Windows" from a User-Agent header: enough to recognise one's own devices. */
export function describeUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null
  const browsers = [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chrom(e|ium)\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ] as const
  const systems = [
    [/Android/, 'Android'],
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ] as const
  const name = browsers.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (name && system) return `${name} · ${system}`
  return name ?? system ?? userAgent.slice(0, 60)
}
