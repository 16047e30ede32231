import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'

interface ActionOptions<TInput, TResult> {
  onMutate?: (input: TInput) => void
  /** Awaited before the action counts as done: a follow-up (reading the session) keeps it pending. */
  onSuccess?: (result: TResult, input: TInput) => unknown
  onError?: (error: Error, input: TInput) => unknown
}

type ActionState<TInput, TResult> =
  | { status: 'idle'; isPending: false; isSuccess: false; isError: false; data?: undefined; error: null; variables?: undefined }
  | { status: 'pending'; isPending: true; isSuccess: false; isError: false; data?: undefined; error: null; variables: TInput }
  | { status: 'success'; isPending: false; isSuccess: true; isError: false; data: TResult; error: null; variables: TInput }
  | { status: 'error'; isPending: false; isSuccess: false; isError: true; data?: undefined; error: Error; variables: TInput }

const idle = { status: 'idle', isPending: false, isSuccess: false, isError: false, error: null } as const
const none = { isPending: false, isSuccess: false, isError: false } as const

/**
 * A write that changes nothing the query cache holds (signing in or up, an emailed link checked, a
 * code sent again, a form whose page reads nothing through the cache): its state (pending, done,
 * failed) kept here, with the same meaning as React Query's `useMutation`, which brings the query
 * cache (about 9.5 KB gzip) to every page that uses it. Never repeated. The callbacks run however
 * the component has changed since; a `reset` or a later call makes an earlier answer leave the
 * state alone.
 */
export function useAction<TInput = void, TResult = unknown>(
  run: (input: TInput) => Promise<TResult>,
  options: ActionOptions<TInput, TResult> = {},
) {
  const [state, setState] = useState<ActionState<TInput, TResult>>(idle)
  const latest = useRef({ run, options })
  useLayoutEffect(() => {
    latest.current = { run, options }
  })
  const call = useRef(0)
  // Unmounted: a late answer has no state to change.
  useEffect(() => () => void (call.current += 1), [])

  const mutate = useCallback((input: TInput) => {
    const id = (call.current += 1)
    const current = () => id === call.current
    const { run: action, options: callbacks } = latest.current
    callbacks.onMutate?.(input)
    setState({ ...none, status: 'pending', isPending: true, error: null, variables: input })
    void (async () => {
      try {
        const data = await action(input)
        await callbacks.onSuccess?.(data, input)
        if (current()) setState({ ...none, status: 'success', isSuccess: true, data, error: null, variables: input })
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error))
        await callbacks.onError?.(failure, input)
        if (current()) setState({ ...none, status: 'error', isError: true, error: failure, variables: input })
      }
    })()
  }, [])
  const reset = useCallback(() => {
    call.current += 1
    setState(idle)
  }, [])

  return { ...state, mutate, reset }
}
