// A noun with its indefinite article, for messages that name a task or a process by a variable
// ("an image model", "a sudoku run").

/** `word` after "a" or "an" (by its first letter: a vowel takes "an"). */
export const withArticle = (word: string): string =>
  `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
