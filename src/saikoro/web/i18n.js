// The page's own words in Japanese (default) and English; event texts carry both already.
const WORDS = {
  langSwitch: ['English', '日本語'],
  createRoom: ['部屋を作る', 'Create a room'],
  recent: ['このブラウザで開いた部屋', 'Rooms opened in this browser'],
  roomName: ['部屋の名前', 'Room name'],
  system: ['ゲームシステム', 'Game system'],
  create: ['作成', 'Create'],
  aboutApi: ['ダイスボットやオンセツールからは BCDice-API として使えます:', 'Dice bots and online tabletop tools can use it as a BCDice-API server:'],
  joinRoom: ['部屋に参加する', 'Join the room'],
  joinHelp: [
    'キャラクターを持ち込んでください: CCFOLIA の「キャラクターをコピー」の JSON、ユドナリウムの zip/xml、saikoro のシート (JSON/YAML) を貼り付けるかドロップします。部屋にいるキャラクターの名前でも参加できます。',
    'Bring a character: paste or drop CCFOLIA\'s "copy character" JSON, an Udonarium zip/xml or a saikoro sheet (JSON/YAML). Or join as a character already in the room.',
  ],
  pasteCharacter: ['キャラクター (貼り付け・ドロップ)', 'Character (paste or drop)'],
  chooseFile: ['ファイルを選ぶ', 'Choose a file'],
  existingName: ['または部屋にいるキャラクターの名前', 'or the name of a character in the room'],
  join: ['参加', 'Join'],
  log: ['ログ', 'Log'],
  tabs: ['タブ', 'Tabs'],
  tabAll: ['すべて', 'All'],
  tab_main: ['メイン', 'Main'],
  tab_info: ['情報', 'Info'],
  tab_other: ['雑談', 'Other'],
  unread: ['未読', 'unread'],
  whisperTo: ['秘話 →', 'whisper →'],
  withWhispers: ['秘話も含める (GM)', 'with whispers (GM)'],
  speaker: ['話者', 'Speaker'],
  line: ['発言・コマンド', 'Message or command'],
  linePlaceholder: ['2D6>=8 · :HP-3 · @名前 … · /help', '2D6>=8 · :HP-3 · @NAME … · /help'],
  send: ['送信', 'Send'],
  undo: ['取り消し', 'Undo'],
  palette: ['チャットパレット', 'Chat palette'],
  combat: ['戦闘', 'Combat'],
  combatStart: ['戦闘開始', 'Start combat'],
  next: ['次の手番', 'Next turn'],
  combatEnd: ['戦闘終了', 'End combat'],
  characters: ['キャラクター', 'Characters'],
  nextStep: [
    '招待リンクをコピーしてプレイヤーに送ってください (下の「招待リンク」)。敵は下の枠にドロップして追加します。',
    'Copy the invite link and send it to your players (see "Invite links" below). Drop enemies on the box below to add them.',
  ],
  dropNpc: [
    'CCFOLIA の JSON やユドナリウムの zip をここにドロップ (または貼り付け) でキャラクターを追加',
    'Drop (or paste) a CCFOLIA JSON or an Udonarium zip here to add a character',
  ],
  links: ['招待リンク', 'Invite links'],
  players: ['プレイヤー', 'Players'],
  storage: ['保存容量', 'Storage'],
  usageHelp: [
    'この部屋のプレイヤー数と保存しているログの量 (サーバーの上限まで)',
    "This room's players and the log it stores (against the server's limits)",
  ],
  newInvite: ['新しい招待リンク', 'New invite link'],
  newSpectator: ['新しい観戦リンク', 'New spectator link'],
  noSavedInvite: [
    '招待リンクの URL はそれを作ったブラウザにしか残りません (サーバーはトークンを保存しません)。ここで新しい招待リンクを作ってください (前のリンクも使えます)。',
    'An invite URL stays only in the browser that made it (the server keeps no token). Make a new invite link here (the earlier one keeps working).',
  ],
  downloadLog: ['ログをダウンロード (HTML)', 'Download the log (HTML)'],
  downloadFailed: ['ログをダウンロードできませんでした', 'The log could not be downloaded'],
  serverError: ['サーバーでエラーが起きました。しばらくしてからもう一度試してください', 'The server failed. Try again in a moment'],
  noCombat: ['戦闘していません', 'No combat'],
  round: ['ラウンド', 'Round'],
  turnOf: ['の手番', '\'s turn'],
  connected: ['接続中', 'Connected'],
  reconnecting: ['再接続しています…', 'Reconnecting…'],
  refused: ['接続を断られました (リンクが無効です)', 'Refused (the link is no longer valid)'],
  secretDice: ['シークレットダイス', 'Secret dice'],
  reveal: ['公開', 'Reveal'],
  copy: ['コピー', 'Copy'],
  copied: ['コピーしました', 'Copied'],
  copyByHand: ['選択しました: Ctrl+C でコピー', 'Selected: press Ctrl+C to copy'],
  pickCharacters: ['ファイルのキャラクター', "The file's characters"],
  addChosen: ['選んだキャラクターを追加', 'Bring in the chosen'],
  addAllNpcs: ['全員を NPC として追加', 'Bring all in as NPCs'],
  joinChosen: ['このキャラクターで参加', 'Join as this character'],
  revoke: ['無効にする', 'Revoke'],
  revoked: ['無効', 'revoked'],
  invite: ['招待 (プレイヤー)', 'Invite (players)'],
  spectator: ['観戦', 'Spectators'],
  gm: ['GM', 'GM'],
  player: ['プレイヤー', 'Player'],
  target: ['目標', 'Target'],
  foes: ['敵', 'Opponents'],
  friends: ['味方', 'Allies'],
  yourTurn: ['あなたの手番です', 'Your turn'],
  turnSound: ['手番の音', 'Turn sound'],
  actionsOf: ['の行動', ': actions'],
  hp: ['HP', 'HP'],
  addCondition: ['状態を追加', 'Add a condition'],
  removeCondition: ['状態を外す', 'Remove condition'],
  changeFace: ['顔 (アイコン) を変える', 'Change face (icon)'],
  editHp: ['HP を変える', 'Change HP'],
  row: ['隊列', 'Row'],
  chance: ['成功率', 'chance of success'],
  paletteEdit: ['入力欄に入れます (相手の値などを書き込んでから送信)', 'goes into the input line (fill in the opponent\'s value, then send)'],
  loading: ['読み込み中…', 'Loading…'],
  pc: ['PC', 'PC'],
  npc: ['NPC', 'NPC'],
  newNpc: ['NPC を作る', 'New NPC'],
  charName: ['名前', 'Name'],
  side: ['陣営', 'Side'],
  count: ['数', 'Count'],
  countHelp: ['2 以上なら名前に A, B, C… が付きます', 'with 2 or more, the names get A, B, C…'],
  moreFields: ['その他の項目', 'More fields'],
  memo: ['メモ', 'Memo'],
  make: ['作成', 'Make'],
  save: ['保存', 'Save'],
  cancel: ['キャンセル', 'Cancel'],
  edit: ['編集', 'Edit'],
  editOf: ['の編集', ': edit'],
  duplicate: ['複製', 'Duplicate'],
  ownPalette: ['自分のチャットパレット (1行に1つ)', 'Your own chat palette (one line each)'],
  editPalette: ['パレットを編集', 'Edit palette'],
  counterDown: ['を1減らす', ': minus 1'],
  counterUp: ['を1増やす', ': plus 1'],
  notFound: ['部屋に入れません (リンクが無効か、部屋がありません)', 'Cannot open the room (the link is revoked or the room does not exist)'],
};

let current = localStorage.getItem('saikoro.lang') === 'en' ? 'en' : 'ja';

export const lang = () => current;

export function t(key) {
  const pair = WORDS[key];
  return pair ? pair[current === 'en' ? 1 : 0] : key;
}

/** The shown text of an event's {ja, en} message. */
export const pick = (message) => (message ? message[current] ?? message.ja : '');

let terms = {};

/** The system's English names of its game terms (webtable.json's `terms_en`). */
export function provideTerms(map) {
  terms = map ?? {};
}

/** A game term (体力, 前衛, 毒 …) in the page's language: what players type stays Japanese. */
export const term = (word) => (current === 'en' ? terms[word] ?? word : word);

/** The room's system provides a word (its dice example in the input's placeholder). */
export function provide(key, pair) {
  WORDS[key] = pair;
  for (const el of document.querySelectorAll(`[data-t-placeholder="${key}"]`)) el.placeholder = t(key);
}

/** Switch language and re-label every element carrying data-t / data-t-placeholder /
 * data-t-label (its aria-label). */
export function setLang(value) {
  current = value === 'en' ? 'en' : 'ja';
  localStorage.setItem('saikoro.lang', current);
  document.documentElement.lang = current;
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  // the switch names the other language in that language (「日本語」 on the English page)
  const other = document.querySelector('#lang');
  if (other) other.lang = current === 'en' ? 'ja' : 'en';
  for (const el of document.querySelectorAll('[data-t-placeholder]')) {
    el.placeholder = t(el.dataset.tPlaceholder);
  }
  for (const el of document.querySelectorAll('[data-t-label]')) el.setAttribute('aria-label', t(el.dataset.tLabel));
}
