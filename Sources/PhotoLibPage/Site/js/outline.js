// How a person finds photos in a big library, beside the grid: Photos or Albums (each album a
// card with its cover and count), and a jump to any month. Both only change what the grid asks
// for (`album`, `before`): what is ticked stays ticked.
import { get } from './api.js';
import { element } from './dom.js';
import { notice } from './notice.js';
import { monthWords } from './grid.js';

const counted = new Intl.NumberFormat('en');

export function outline(grid) {
  const photos = element('button', { type: 'button', text: 'Photos', 'aria-pressed': 'true', onclick: () => showPhotos() });
  const albums = element('button', { type: 'button', text: 'Albums', 'aria-pressed': 'false', onclick: () => showAlbums() });
  const month = element('select', { 'aria-label': 'Jump to month', onchange: () => jump() },
    element('option', { value: '', text: 'Newest first' }));
  const chip = element('button', { type: 'button', class: 'chip', hidden: true, onclick: () => leaveAlbum() });
  const cards = element('div', { class: 'album-cards', hidden: true, role: 'list', 'aria-label': 'Albums' });
  let cardsLoaded = false;
  let monthsAsked = false;

  // The months are counted over the whole library (a tenth of a second at 100,000 photos): asked
  // once the grid's first photos are in (`loadMonths`), or when the person reaches for the menu.
  function loadMonths() {
    if (monthsAsked) return;
    monthsAsked = true;
    get('/api/timeline').then(({ months }) => {
      for (const { month: key, assets } of months) {
        const [year, number] = key.split('-').map(Number);
        const words = monthWords.format(new Date(year, number - 1, 1));
        month.append(element('option', { value: key, text: `${words} (${counted.format(assets)})` }));
      }
    }, (error) => { monthsAsked = false; notice(error.message); });
  }
  month.addEventListener('focus', loadMonths);

  function refilter(change) {
    grid.filter({ ...grid.query, ...change });
  }

  function showPhotos() {
    photos.setAttribute('aria-pressed', 'true');
    albums.setAttribute('aria-pressed', 'false');
    cards.hidden = true;
    grid.element.hidden = false;
  }

  async function showAlbums() {
    photos.setAttribute('aria-pressed', 'false');
    albums.setAttribute('aria-pressed', 'true');
    grid.element.hidden = true;
    cards.hidden = false;
    if (cardsLoaded) return;
    cardsLoaded = true;
    try {
      const { albums: list } = await get('/api/albums/summaries');
      cards.replaceChildren(...(list.length ? list.map(card) : [element('p', { class: 'note', text: 'The library has no albums.' })]));
    } catch (error) {
      cardsLoaded = false;
      notice(error.message);
    }
  }

  function card(album) {
    const count = `${album.assets.toLocaleString('en')} ${album.assets === 1 ? 'photo' : 'photos'}`;
    return element('button', { type: 'button', class: 'album-card', role: 'listitem', title: album.path,
      'aria-label': `${album.path}, ${count}`,
      onclick: () => openAlbum(album.path) },
      album.cover ? element('img', { src: `/thumbs/${encodeURIComponent(album.cover)}`, alt: '', loading: 'lazy' })
        : element('span', { class: 'album-empty', 'aria-hidden': 'true' }),
      element('span', { class: 'album-name', text: album.name }),
      element('span', { class: 'album-count', text: count }));
  }

  function openAlbum(path) {
    chip.textContent = `Album: ${path} ✕`;
    chip.setAttribute('aria-label', `Showing the album ${path}; show every album`);
    chip.hidden = false;
    showPhotos();
    refilter({ album: path });
  }

  function leaveAlbum() {
    chip.hidden = true;
    refilter({ album: '' });
  }

  // The month chosen and everything before it, newest first: the grid opens on that month.
  function jump() {
    if (!month.value) return refilter({ before: null });
    const [year, number] = month.value.split('-').map(Number);
    refilter({ before: Math.floor(new Date(year, number, 1).getTime() / 1000) });
    showPhotos();
  }

  return { loadMonths, bar: element('span', { class: 'outline' }, element('span', { class: 'segmented', role: 'group', 'aria-label': 'View' }, photos, albums),
    month, chip), cards };
}
