/**
 * A time zone where it is about noon when the test file loads (still the middle of the day there
 * when its tests run minutes later), for tests whose cards come due minutes after a grade: near
 * midnight they would be due tomorrow (rightly), and "Due today" or "later today" would not count
 * them. Give it to the browser (`test.use({ timezoneId: middayZone })`) as well as to the learner's
 * settings: the dashboard and the practice page store the browser's zone as the learner's.
 */
export const middayZone = (() => {
  const offset = 12 - new Date().getUTCHours()
  return offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`
})()
