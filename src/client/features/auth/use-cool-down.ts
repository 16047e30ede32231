import { useEffect, useState } from 'react'
import { RESEND_COOL_DOWN_SECONDS } from '@/shared/auth'

/**
 * Seconds left before another email may be asked for (the server sends at most one email of a
 * kind per address per 60 s). Starts running when the first email is asked for.
 */
export function useCoolDown(startRunning = true): { secondsLeft: number; restart: () => void } {
  const [until, setUntil] = useState(() =>
    startRunning ? Date.now() + RESEND_COOL_DOWN_SECONDS * 1000 : 0,
  )
  const [now, setNow] = useState(() => Date.now())
  const secondsLeft = Math.max(0, Math.ceil((until - now) / 1000))

  useEffect(() => {
    if (secondsLeft === 0) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [secondsLeft])

  return {
    secondsLeft,
    restart: () => {
      const start = Date.now()
      setNow(start)
      setUntil(start + RESEND_COOL_DOWN_SECONDS * 1000)
    },
  }
}
