import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

export const fetchingMessages = i18n('demoFetching', {
  title: 'Fetching data',
  intro:
    'This page reads the server time from the API. It shows loading, error and retry states, and can refresh on demand.',
  databaseTime: 'Database time',
  requestId: 'Request id',
  simulateFailure: 'Simulate a server failure',
  fetchedAt: params<{ time: string }>('Fetched at {time}'),
  refresh: 'Refresh',
  loading: 'Loading…',
})

export const postMessages = i18n('demoPost', {
  title: 'Posting a form',
  intro:
    'This form is validated in the browser and again by the server with the same rules. The server answers with what it accepted.',
  name: 'Name',
  email: 'Email',
  message: 'Message',
  submit: 'Send',
  sending: 'Sending…',
  answerTitle: 'The server accepted',
  sent: 'Message sent',
})

export const sharedStateMessages = i18n('demoSharedState', {
  homeTitle: 'Shared state: first page',
  aboutTitle: 'Shared state: second page',
  intro:
    'One counter is shared by two pages. Change it here, then open the other page: the value follows you.',
  count: params<{ value: string }>('Count: {value}'),
  increment: 'Increment',
  decrement: 'Decrement',
  reset: 'Reset',
  toAbout: 'Go to the second page',
  toHome: 'Go to the first page',
})
