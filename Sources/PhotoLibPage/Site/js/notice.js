// One line at the bottom of the page, read out by screen readers, gone after a while.
let timer = null;

export function notice(text) {
  const element = document.getElementById('notice');
  element.textContent = text;
  clearTimeout(timer);
  timer = setTimeout(() => { element.textContent = ''; }, 6000);
}
