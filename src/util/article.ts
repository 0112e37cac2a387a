// Nouns in messages: with the indefinite article, for a task or a process named by a variable
// ("an image model", "a sudoku run"), and after a count ("1 board", "2 boards").

/** `word` after "a" or "an" (by its first letter: a vowel takes "an"). */
export const withArticle = (word: string): string =>
  `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

/** `n` and the noun, singular for 1 ("1 board", "0 boards"; `many` for an irregular plural). */
export const counted = (n: number, one: string, many = `${one}s`): string =>
  `${n} ${n === 1 ? one : many}`;
