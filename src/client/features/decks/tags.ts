/** Tags as typed in the word form: words separated by spaces, each once. */
export const tagsOf = (typed: string): string[] => [...new Set(typed.split(/\s+/).filter(Boolean))]
