// The photo grid: pages of assets newest first, in month sections; each tile a real checkbox
// whose accessible name is the file name, then the date; arrows move, Space toggles, Enter confirms.
import { get } from './api.js';
import { element } from './dom.js';

const pageSize = 120;
// Made once: toLocaleString with options builds a new formatter on every call, two per tile.
export const monthWords = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });
const dayWords = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric' });
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// A search that names a date ("2024", "2024-07", "2024-07-14", "July 2024") is a span of when
// photos were taken, in the person's own time zone: [start, end). Anything else is a name or album.
export function dateSpan(text) {
  let match = text.match(/^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/);
  let year, month = null, day = null;
  if (match) {
    [year, month, day] = [Number(match[1]), match[2] ? Number(match[2]) - 1 : null, match[3] ? Number(match[3]) : null];
  } else if ((match = text.toLowerCase().match(/^([a-z]+)\.? (\d{4})$/)) && months.includes(match[1].slice(0, 3))) {
    [year, month] = [Number(match[2]), months.indexOf(match[1].slice(0, 3))];
  } else {
    return null;
  }
  if (month !== null && (month < 0 || month > 11)) return null;
  if (day !== null) return [new Date(year, month, day), new Date(year, month, day + 1)];
  if (month !== null) return [new Date(year, month, 1), new Date(year, month + 1, 1)];
  return [new Date(year, 0, 1), new Date(year + 1, 0, 1)];
}

export class Grid {
  constructor({ checked = new Set(), limit = 0, ordered = false, types = null, accepts = [] } = {}) {
    this.types = types;
    // For a pick: the types its app reads. Each tile then says whether the app can open it.
    this.accepts = accepts;
    this.checked = new Set(checked);
    this.order = [];
    this.limit = limit;
    this.ordered = ordered;
    this.query = { type: '', search: '' };
    this.onConfirm = null;
    this.onChange = null;
    this.element = element('div', { class: 'grid-area' });
    this.sections = new Map();
    this.sentinel = element('div', { class: 'sentinel' });
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) this.more();
    }, { rootMargin: '800px' });
    this.element.addEventListener('keydown', (event) => this.key(event));
  }

  // The first page, asked for while the rest of the screen is still being asked for (see firstPage).
  // A load started later (a new search) supersedes this one: its pages, and its observing, are dropped.
  async load(first = null) {
    const generation = this.generation = (this.generation ?? 0) + 1;
    this.offset = 0;
    this.total = null;
    this.loading = false;
    this.sections.clear();
    this.observer.unobserve(this.sentinel);
    this.element.replaceChildren(this.sentinel);
    this.element.setAttribute('aria-busy', 'true');  // what assistive technology (and the tests) wait on
    try {
      await this.more(first);
    } finally {
      if (generation === this.generation) this.element.removeAttribute('aria-busy');
    }
    if (generation !== this.generation) return;
    if (this.total === 0) {
      this.element.insertBefore(element('p', { class: 'note', role: 'status',
        text: this.query.search || this.query.type || this.query.album || this.query.before ? 'No photos match.'
          : 'The library has no photos yet.' }), this.sentinel);
      return;
    }
    // The next page only once the first screenful has painted (or 2 s have passed): asked for at once,
    // it would compete with the thumbnails the person is waiting to see.
    const shown = [...this.element.querySelectorAll('.tile img')].slice(0, 60);
    await Promise.race([Promise.all(shown.map((img) => img.decode().catch(() => null))), new Promise((done) => setTimeout(done, 2000))]);
    if (generation === this.generation) this.observer.observe(this.sentinel);
  }

  filter(query) {
    this.query = query;
    return this.load();
  }

  static firstPage(query = { type: '', search: '' }) {
    return get(`/api/assets?${Grid.params(0, query)}`);
  }

  static params(offset, query, accepts = []) {
    const params = new URLSearchParams({ offset, limit: pageSize, type: query.type });
    if (accepts.length) params.set('accepts', accepts.join(','));
    const span = dateSpan((query.search ?? '').trim());
    if (span) {
      params.set('takenFrom', Math.floor(span[0].getTime() / 1000));
      params.set('takenTo', Math.floor(span[1].getTime() / 1000));
    } else {
      params.set('search', query.search ?? '');
      if (query.before) params.set('takenTo', query.before);  // a jump to a month: it, then what came before
    }
    if (query.album) params.set('album', query.album);
    return params;
  }

  async more(prefetched = null) {
    if (this.loading || (this.total !== null && this.offset >= this.total)) return;
    this.loading = true;
    const generation = this.generation;
    const page = prefetched ?? await get(`/api/assets?${Grid.params(this.offset, this.query, this.accepts)}`);
    if (generation !== this.generation) return;  // asked for an earlier search: not this grid's any more
    this.total = page.total;
    const start = this.offset;
    this.offset += page.assets.length;
    page.assets.forEach((asset, index) => this.add(asset, start + index));
    this.loading = false;
    if (page.assets.length === 0) this.total = this.offset;
  }

  add(asset, position) {
    if (this.types && !this.types.includes(asset.mediaType)) return;
    const date = new Date(asset.mtime / 1e6);
    const month = monthWords.format(date);
    let section = this.sections.get(month);
    if (!section) {
      section = element('div', { class: 'grid', role: 'group', 'aria-label': month });
      this.sections.set(month, section);
      this.element.insertBefore(element('h3', { class: 'section', text: month }), this.sentinel);
      this.element.insertBefore(section, this.sentinel);
    }
    const day = dayWords.format(date);
    // A photo the picking app cannot open, in any form photolibd can make, cannot be chosen: said on the
    // tile before the person chooses, rather than refused after.
    const unreadable = asset.format === 'unreadable';
    const box = element('input', { type: 'checkbox', 'aria-label': `${asset.name}, ${day}${unreadable ? ', the app cannot open this type' : ''}`,
      'data-id': asset.id, checked: this.checked.has(asset.id), disabled: unreadable, onchange: () => this.toggle(asset.id, box) });
    const kind = unreadable ? 'Can’t open' : asset.mediaType === 'video' ? 'Video' : asset.mediaType === 'live' ? 'Live' : null;
    // A tile's details: where the file is, where it was taken once that is known, and in what form the app gets it.
    const details = [asset.path, asset.place, asset.format === 'jpeg' ? 'The app gets it as a JPEG.' : null,
      unreadable ? 'The app cannot open this type, and no JPEG can be made of it.' : null].filter(Boolean).join('\n');
    const tile = element('label', { class: unreadable ? 'tile unreadable' : 'tile', title: details },
      box,
      // The first screenful is asked for at once; further tiles when they come near the screen.
      element('img', { src: `/thumbs/${encodeURIComponent(asset.id)}`, alt: '', loading: position < 60 ? 'eager' : 'lazy', decoding: 'async' }),
      kind ? element('span', { class: 'badge', text: kind }) : null,
      element('span', { class: 'order', hidden: true }));
    section.append(tile);
    this.number(box);
  }

  toggle(id, box) {
    if (box.checked) {
      if (this.limit > 0 && this.checked.size >= this.limit) {
        box.checked = false;
        this.onLimit?.();
        return;
      }
      this.checked.add(id);
      this.order.push(id);
    } else {
      this.checked.delete(id);
      this.order = this.order.filter((other) => other !== id);
    }
    for (const other of this.element.querySelectorAll('input[type=checkbox]')) this.number(other);
    this.onChange?.();
  }

  number(box) {
    const badge = box.parentElement?.querySelector('.order');
    if (!badge) return;
    const index = this.order.indexOf(box.dataset.id);
    badge.hidden = !this.ordered || index < 0;
    badge.textContent = index < 0 ? '' : String(index + 1);
  }

  checkedIDs() {
    return new Set(this.checked);
  }

  chosenInOrder() {
    return [...this.order];
  }

  key(event) {
    const boxes = [...this.element.querySelectorAll('input[type=checkbox]')];
    const index = boxes.indexOf(document.activeElement);
    if (index < 0) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      this.onConfirm?.();
      return;
    }
    const columns = Math.max(1, Math.round(this.element.querySelector('.grid').clientWidth / 138));
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns }[event.key];
    if (!step) return;
    event.preventDefault();
    const next = boxes[Math.min(boxes.length - 1, Math.max(0, index + step))];
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
  }
}
