// The words the seed builds a believable shop from: brands, the category tree, product types,
// colours and materials. Pure data, no I/O.

export type Department = 'clothing' | 'shoes' | 'bags' | 'jewellery' | 'accessories';
export type Audience = 'women' | 'men' | 'kids';

export interface BrandDef {
  name: string;
  nameRu: string;
  country: string;
  /** 1 premium … 3 haute luxury: scales prices. */
  tier: 1 | 2 | 3;
  makes: readonly Department[];
  popular?: boolean;
}

const ALL: readonly Department[] = ['clothing', 'shoes', 'bags', 'jewellery', 'accessories'];
const NO_JEWELLERY: readonly Department[] = ['clothing', 'shoes', 'bags', 'accessories'];

export const BRANDS: readonly BrandDef[] = [
  { name: 'Gucci', nameRu: 'Гуччи', country: 'Италия', tier: 3, makes: ALL, popular: true },
  { name: 'Prada', nameRu: 'Прада', country: 'Италия', tier: 3, makes: ALL, popular: true },
  { name: 'Balenciaga', nameRu: 'Баленсиага', country: 'Испания', tier: 3, makes: NO_JEWELLERY, popular: true },
  { name: 'Saint Laurent', nameRu: 'Сен-Лоран', country: 'Франция', tier: 3, makes: ALL, popular: true },
  { name: 'Valentino', nameRu: 'Валентино', country: 'Италия', tier: 3, makes: ALL },
  { name: 'Bottega Veneta', nameRu: 'Боттега Венета', country: 'Италия', tier: 3, makes: NO_JEWELLERY, popular: true },
  { name: 'Loewe', nameRu: 'Лоэве', country: 'Испания', tier: 3, makes: NO_JEWELLERY },
  { name: 'Celine', nameRu: 'Селин', country: 'Франция', tier: 3, makes: ALL },
  { name: 'Fendi', nameRu: 'Фенди', country: 'Италия', tier: 3, makes: ALL },
  { name: 'Dior', nameRu: 'Диор', country: 'Франция', tier: 3, makes: ALL, popular: true },
  { name: 'Givenchy', nameRu: 'Живанши', country: 'Франция', tier: 3, makes: NO_JEWELLERY },
  { name: 'Burberry', nameRu: 'Барберри', country: 'Великобритания', tier: 2, makes: NO_JEWELLERY },
  { name: 'Versace', nameRu: 'Версаче', country: 'Италия', tier: 2, makes: ALL },
  { name: 'Dolce & Gabbana', nameRu: 'Дольче и Габбана', country: 'Италия', tier: 3, makes: ALL },
  { name: 'Moncler', nameRu: 'Монклер', country: 'Италия', tier: 2, makes: ['clothing', 'shoes', 'accessories'], popular: true },
  { name: 'Stone Island', nameRu: 'Стон Айленд', country: 'Италия', tier: 2, makes: ['clothing', 'accessories'] },
  { name: 'Off-White', nameRu: 'Офф-Вайт', country: 'Италия', tier: 2, makes: NO_JEWELLERY },
  { name: 'Alexander McQueen', nameRu: 'Александр Маккуин', country: 'Великобритания', tier: 3, makes: ALL },
  { name: 'Maison Margiela', nameRu: 'Мезон Маржела', country: 'Франция', tier: 2, makes: ALL },
  { name: 'Jil Sander', nameRu: 'Джил Сандер', country: 'Германия', tier: 2, makes: NO_JEWELLERY },
  { name: 'Acne Studios', nameRu: 'Акне Студиос', country: 'Швеция', tier: 1, makes: ['clothing', 'shoes', 'bags', 'accessories'] },
  { name: 'Ami Paris', nameRu: 'Ами Пари', country: 'Франция', tier: 1, makes: ['clothing', 'shoes', 'accessories'] },
  { name: 'Max Mara', nameRu: 'Макс Мара', country: 'Италия', tier: 2, makes: ['clothing', 'bags', 'accessories'] },
  { name: 'Miu Miu', nameRu: 'Миу Миу', country: 'Италия', tier: 3, makes: ALL, popular: true },
  { name: 'Chloé', nameRu: 'Хлоя', country: 'Франция', tier: 2, makes: NO_JEWELLERY },
  { name: 'Jacquemus', nameRu: 'Жакмюс', country: 'Франция', tier: 1, makes: ['clothing', 'shoes', 'bags', 'accessories'] },
  { name: 'Ganni', nameRu: 'Ганни', country: 'Дания', tier: 1, makes: ['clothing', 'shoes', 'bags'] },
  { name: 'Golden Goose', nameRu: 'Голден Гус', country: 'Италия', tier: 1, makes: ['shoes', 'clothing'], popular: true },
  { name: 'Balmain', nameRu: 'Бальман', country: 'Франция', tier: 2, makes: NO_JEWELLERY },
  { name: 'Kenzo', nameRu: 'Кензо', country: 'Франция', tier: 1, makes: ['clothing', 'shoes', 'accessories'] },
  { name: 'Marni', nameRu: 'Марни', country: 'Италия', tier: 2, makes: NO_JEWELLERY },
  { name: 'Tom Ford', nameRu: 'Том Форд', country: 'США', tier: 3, makes: ['clothing', 'shoes', 'accessories'] },
  { name: 'Brunello Cucinelli', nameRu: 'Брунелло Кучинелли', country: 'Италия', tier: 3, makes: ['clothing', 'shoes', 'accessories'] },
  { name: 'Loro Piana', nameRu: 'Лоро Пьяна', country: 'Италия', tier: 3, makes: ['clothing', 'shoes', 'accessories'] },
  { name: 'Zegna', nameRu: 'Зенья', country: 'Италия', tier: 2, makes: ['clothing', 'shoes', 'accessories'] },
  { name: 'Etro', nameRu: 'Этро', country: 'Италия', tier: 2, makes: ['clothing', 'bags', 'accessories'] },
  { name: 'Stella McCartney', nameRu: 'Стелла Маккартни', country: 'Великобритания', tier: 2, makes: ['clothing', 'shoes', 'bags'] },
  { name: 'Palm Angels', nameRu: 'Палм Энджелс', country: 'Италия', tier: 1, makes: ['clothing', 'shoes', 'accessories'] },
  { name: 'Rick Owens', nameRu: 'Рик Оуэнс', country: 'США', tier: 2, makes: ['clothing', 'shoes'] },
  { name: 'Isabel Marant', nameRu: 'Изабель Маран', country: 'Франция', tier: 1, makes: ['clothing', 'shoes', 'jewellery'] },
  { name: 'Furla', nameRu: 'Фурла', country: 'Италия', tier: 1, makes: ['bags', 'accessories'] },
  { name: 'Cartier', nameRu: 'Картье', country: 'Франция', tier: 3, makes: ['jewellery', 'accessories'], popular: true },
  { name: 'Bvlgari', nameRu: 'Булгари', country: 'Италия', tier: 3, makes: ['jewellery', 'accessories'] },
  { name: 'Swarovski', nameRu: 'Сваровски', country: 'Австрия', tier: 1, makes: ['jewellery'] },
];

/** How a product type is drawn in the generated images. */
export type ImageKind =
  | 'dress'
  | 'skirt'
  | 'trousers'
  | 'top'
  | 'sweater'
  | 'coat'
  | 'sneaker'
  | 'heel'
  | 'boot'
  | 'loafer'
  | 'shoulder-bag'
  | 'tote'
  | 'clutch'
  | 'backpack'
  | 'ring'
  | 'earrings'
  | 'bracelet'
  | 'necklace'
  | 'belt'
  | 'sunglasses'
  | 'scarf'
  | 'wallet'
  | 'watch'
  | 'hat';

export const IMAGE_KINDS: readonly ImageKind[] = [
  'dress',
  'skirt',
  'trousers',
  'top',
  'sweater',
  'coat',
  'sneaker',
  'heel',
  'boot',
  'loafer',
  'shoulder-bag',
  'tote',
  'clutch',
  'backpack',
  'ring',
  'earrings',
  'bracelet',
  'necklace',
  'belt',
  'sunglasses',
  'scarf',
  'wallet',
  'watch',
  'hat',
];

export type SizeSet = readonly string[];
export const SIZES = {
  womenClothing: ['XS', 'S', 'M', 'L', 'XL'],
  menClothing: ['S', 'M', 'L', 'XL', 'XXL'],
  kidsClothing: ['98', '104', '110', '116', '122', '128', '134', '140'],
  womenShoes: ['35', '36', '37', '38', '39', '40', '41'],
  menShoes: ['39', '40', '41', '42', '43', '44', '45', '46'],
  kidsShoes: ['24', '25', '26', '27', '28', '29', '30', '31', '32', '33'],
  rings: ['16', '16,5', '17', '17,5', '18', '18,5'],
  belts: ['75', '80', '85', '90', '95', '100'],
  one: ['Единый размер'],
} as const satisfies Record<string, SizeSet>;

export interface ProductTypeDef {
  /** The noun that starts a product name: 'Платье', 'Кроссовки'. */
  noun: string;
  image: ImageKind;
  sizes: SizeSet;
  /** Materials in the genitive, after 'из'. */
  materials: readonly string[];
  /** Invariable modifiers that follow the noun: 'миди', 'с поясом'. */
  styles: readonly string[];
  /** Model names are used for shoes, bags and jewellery, as luxury shops do ('Сумка Arco'). */
  modelNames?: boolean;
  /** Price range in roubles at tier 1; tiers 2 and 3 multiply it. */
  price: readonly [number, number];
  maxItem?: number;
}

export interface LeafDef {
  name: string;
  slug: string;
  type: ProductTypeDef;
  /** Relative share of products in the catalogue. */
  weight: number;
}

export interface DepartmentDef {
  department: Department;
  name: string;
  slug: string;
  icon: string;
  leaves: readonly LeafDef[];
}

export interface AudienceDef {
  audience: Audience;
  name: string;
  slug: string;
  icon: string;
  departments: readonly DepartmentDef[];
}

const FABRICS = ['шёлка', 'хлопка', 'шерсти', 'кашемира', 'льна', 'вискозы', 'твида', 'крепа', 'джерси', 'атласа'];
const KNITS = ['кашемира', 'шерсти мериноса', 'хлопка', 'альпаки', 'мохера', 'шерсти и кашемира'];
const LEATHERS = ['кожи', 'замши', 'лакированной кожи', 'зернистой кожи', 'кожи и текстиля', 'нейлона'];
const PRECIOUS = ['белого золота', 'жёлтого золота', 'розового золота', 'серебра', 'серебра с позолотой'];

/**
 * Materials are written in the genitive for product names ('из замши'); the attribute 'Материал' names
 * them in the nominative ('Замша'). Every material of the types above has its entry (a test checks).
 */
export const MATERIAL_NOMINATIVE: Readonly<Record<string, string>> = {
  альпаки: 'альпака',
  атласа: 'атлас',
  ацетата: 'ацетат',
  'белого золота': 'белое золото',
  букле: 'букле',
  вискозы: 'вискоза',
  'вощёной кожи': 'вощёная кожа',
  'гладкой кожи': 'гладкая кожа',
  денима: 'деним',
  джерси: 'джерси',
  'жёлтого золота': 'жёлтое золото',
  замши: 'замша',
  'зернистой кожи': 'зернистая кожа',
  канваса: 'канвас',
  кашемира: 'кашемир',
  керамики: 'керамика',
  кожи: 'кожа',
  'кожи и текстиля': 'кожа и текстиль',
  крепа: 'креп',
  'лакированной кожи': 'лакированная кожа',
  льна: 'лён',
  'мембранной ткани': 'мембранная ткань',
  металла: 'металл',
  модала: 'модал',
  мохера: 'мохер',
  нейлона: 'нейлон',
  'органического хлопка': 'органический хлопок',
  'плетёной кожи': 'плетёная кожа',
  поплина: 'поплин',
  рафии: 'рафия',
  резины: 'резина',
  'розового золота': 'розовое золото',
  серебра: 'серебро',
  'серебра с позолотой': 'серебро с позолотой',
  'серебра с эмалью': 'серебро с эмалью',
  соломы: 'солома',
  стали: 'сталь',
  'стали и золота': 'сталь и золото',
  твида: 'твид',
  титана: 'титан',
  фетра: 'фетр',
  фланели: 'фланель',
  футера: 'футер',
  хлопка: 'хлопок',
  'хлопка пике': 'хлопок пике',
  шерсти: 'шерсть',
  'шерсти и кашемира': 'шерсть и кашемир',
  'шерсти мериноса': 'шерсть мериноса',
  шёлка: 'шёлк',
  'эластичного денима': 'эластичный деним',
  'японского денима': 'японский деним',
};

const t = (def: ProductTypeDef): ProductTypeDef => def;

const W = {
  dress: t({
    noun: 'Платье',
    image: 'dress',
    sizes: SIZES.womenClothing,
    materials: FABRICS,
    styles: ['миди', 'макси', 'мини', 'с поясом', 'с запахом', 'на бретелях', 'с принтом', 'в стиле бохо'],
    price: [22000, 95000],
  }),
  skirt: t({
    noun: 'Юбка',
    image: 'skirt',
    sizes: SIZES.womenClothing,
    materials: FABRICS,
    styles: ['миди', 'мини', 'макси', 'плиссе', 'с разрезом', 'с запахом'],
    price: [15000, 60000],
  }),
  trousers: t({
    noun: 'Брюки',
    image: 'trousers',
    sizes: SIZES.womenClothing,
    materials: ['шерсти', 'вискозы', 'хлопка', 'льна', 'крепа'],
    styles: ['палаццо', 'со стрелками', 'прямого кроя', 'с высокой посадкой', 'клёш'],
    price: [18000, 65000],
  }),
  jeans: t({
    noun: 'Джинсы',
    image: 'trousers',
    sizes: SIZES.womenClothing,
    materials: ['денима', 'эластичного денима', 'японского денима'],
    styles: ['прямого кроя', 'клёш', 'с высокой посадкой', 'бойфренды', 'с потёртостями'],
    price: [16000, 48000],
  }),
  blouse: t({
    noun: 'Блузка',
    image: 'top',
    sizes: SIZES.womenClothing,
    materials: FABRICS,
    styles: ['с бантом', 'оверсайз', 'с объёмными рукавами', 'на пуговицах', 'с вышивкой'],
    price: [14000, 55000],
  }),
  tshirt: t({
    noun: 'Футболка',
    image: 'top',
    sizes: SIZES.womenClothing,
    materials: ['хлопка', 'органического хлопка', 'джерси', 'льна'],
    styles: ['с логотипом', 'оверсайз', 'с принтом', 'базовая модель'],
    price: [8000, 28000],
  }),
  knit: t({
    noun: 'Джемпер',
    image: 'sweater',
    sizes: SIZES.womenClothing,
    materials: KNITS,
    styles: ['оверсайз', 'с высоким воротом', 'крупной вязки', 'с V-образным вырезом'],
    price: [20000, 90000],
  }),
  coat: t({
    noun: 'Пальто',
    image: 'coat',
    sizes: SIZES.womenClothing,
    materials: ['шерсти', 'кашемира', 'шерсти и кашемира', 'альпаки', 'твида'],
    styles: ['двубортное', 'с поясом', 'оверсайз', 'миди', 'макси'],
    price: [60000, 240000],
  }),
  jacket: t({
    noun: 'Жакет',
    image: 'coat',
    sizes: SIZES.womenClothing,
    materials: ['твида', 'шерсти', 'льна', 'крепа', 'букле'],
    styles: ['двубортный', 'укороченный', 'оверсайз', 'на пуговицах'],
    price: [35000, 130000],
  }),
  sneakers: t({
    noun: 'Кроссовки',
    image: 'sneaker',
    sizes: SIZES.womenShoes,
    materials: LEATHERS,
    styles: ['на платформе', 'с логотипом', 'в винтажном стиле', 'с контрастной отделкой'],
    modelNames: true,
    price: [25000, 75000],
  }),
  pumps: t({
    noun: 'Туфли',
    image: 'heel',
    sizes: SIZES.womenShoes,
    materials: ['кожи', 'замши', 'лакированной кожи', 'атласа'],
    styles: ['на шпильке', 'с острым носком', 'на устойчивом каблуке', 'слингбэки'],
    modelNames: true,
    price: [30000, 95000],
  }),
  ankleBoots: t({
    noun: 'Ботильоны',
    image: 'boot',
    sizes: SIZES.womenShoes,
    materials: ['кожи', 'замши', 'лакированной кожи'],
    styles: ['на каблуке', 'на тракторной подошве', 'челси', 'с острым носком'],
    modelNames: true,
    price: [40000, 120000],
  }),
  boots: t({
    noun: 'Сапоги',
    image: 'boot',
    sizes: SIZES.womenShoes,
    materials: ['кожи', 'замши', 'гладкой кожи'],
    styles: ['до колена', 'ботфорты', 'на каблуке', 'в ковбойском стиле'],
    modelNames: true,
    price: [55000, 160000],
  }),
  sandals: t({
    noun: 'Босоножки',
    image: 'heel',
    sizes: SIZES.womenShoes,
    materials: ['кожи', 'замши', 'атласа', 'плетёной кожи'],
    styles: ['на каблуке', 'на платформе', 'с ремешком на щиколотке', 'мюли'],
    modelNames: true,
    price: [28000, 85000],
  }),
  loafersW: t({
    noun: 'Лоферы',
    image: 'loafer',
    sizes: SIZES.womenShoes,
    materials: ['кожи', 'замши', 'лакированной кожи'],
    styles: ['с пряжкой', 'на массивной подошве', 'с кисточками', 'с цепочкой'],
    modelNames: true,
    price: [35000, 90000],
  }),
  shoulderBag: t({
    noun: 'Сумка',
    image: 'shoulder-bag',
    sizes: SIZES.one,
    materials: LEATHERS,
    styles: ['через плечо', 'на цепочке', 'мини', 'с клапаном', 'стёганая'],
    modelNames: true,
    price: [70000, 260000],
    maxItem: 2,
  }),
  tote: t({
    noun: 'Сумка-тоут',
    image: 'tote',
    sizes: SIZES.one,
    materials: ['кожи', 'канваса', 'зернистой кожи', 'рафии'],
    styles: ['большая', 'средняя', 'с логотипом', 'с плетением'],
    modelNames: true,
    price: [60000, 220000],
    maxItem: 2,
  }),
  clutch: t({
    noun: 'Клатч',
    image: 'clutch',
    sizes: SIZES.one,
    materials: ['кожи', 'атласа', 'замши', 'лакированной кожи'],
    styles: ['с кристаллами', 'конверт', 'с цепочкой', 'плиссированный'],
    modelNames: true,
    price: [45000, 180000],
    maxItem: 2,
  }),
  backpackW: t({
    noun: 'Рюкзак',
    image: 'backpack',
    sizes: SIZES.one,
    materials: ['нейлона', 'кожи', 'канваса'],
    styles: ['мини', 'с логотипом', 'с клапаном'],
    modelNames: true,
    price: [55000, 170000],
    maxItem: 2,
  }),
  ring: t({
    noun: 'Кольцо',
    image: 'ring',
    sizes: SIZES.rings,
    materials: PRECIOUS,
    styles: ['с бриллиантом', 'с жемчугом', 'с эмалью', 'с фианитами', 'минималистичное'],
    modelNames: true,
    price: [18000, 320000],
    maxItem: 2,
  }),
  earrings: t({
    noun: 'Серьги',
    image: 'earrings',
    sizes: SIZES.one,
    materials: PRECIOUS,
    styles: ['с жемчугом', 'с бриллиантами', 'кольца', 'пусеты', 'с подвесками'],
    modelNames: true,
    price: [16000, 280000],
    maxItem: 2,
  }),
  bracelet: t({
    noun: 'Браслет',
    image: 'bracelet',
    sizes: SIZES.one,
    materials: PRECIOUS,
    styles: ['цепочка', 'жёсткий', 'с подвеской', 'с гравировкой'],
    modelNames: true,
    price: [20000, 300000],
    maxItem: 2,
  }),
  necklace: t({
    noun: 'Колье',
    image: 'necklace',
    sizes: SIZES.one,
    materials: PRECIOUS,
    styles: ['с подвеской', 'с жемчугом', 'с кристаллами', 'чокер'],
    modelNames: true,
    price: [22000, 350000],
    maxItem: 2,
  }),
  belt: t({
    noun: 'Ремень',
    image: 'belt',
    sizes: SIZES.belts,
    materials: ['кожи', 'гладкой кожи', 'замши', 'лакированной кожи'],
    styles: ['с логотипом на пряжке', 'узкий', 'двусторонний', 'с металлической пряжкой'],
    price: [18000, 60000],
  }),
  sunglasses: t({
    noun: 'Солнцезащитные очки',
    image: 'sunglasses',
    sizes: SIZES.one,
    materials: ['ацетата', 'металла', 'титана'],
    styles: ['кошачий глаз', 'авиаторы', 'в квадратной оправе', 'в круглой оправе', 'оверсайз'],
    price: [22000, 65000],
    maxItem: 3,
  }),
  scarf: t({
    noun: 'Платок',
    image: 'scarf',
    sizes: SIZES.one,
    materials: ['шёлка', 'кашемира', 'шерсти', 'модала'],
    styles: ['с принтом', 'с монограммой', 'с бахромой', 'в клетку'],
    price: [15000, 70000],
  }),
  wallet: t({
    noun: 'Картхолдер',
    image: 'wallet',
    sizes: SIZES.one,
    materials: ['кожи', 'зернистой кожи', 'лакированной кожи', 'канваса'],
    styles: ['с логотипом', 'на молнии', 'компактный', 'с монограммой'],
    price: [14000, 55000],
    maxItem: 3,
  }),
  watch: t({
    noun: 'Часы',
    image: 'watch',
    sizes: SIZES.one,
    materials: ['стали', 'стали и золота', 'керамики', 'титана'],
    styles: ['на кожаном ремешке', 'на браслете', 'с перламутровым циферблатом', 'хронограф'],
    modelNames: true,
    price: [60000, 900000],
    maxItem: 1,
  }),
  hat: t({
    noun: 'Шляпа',
    image: 'hat',
    sizes: SIZES.one,
    materials: ['фетра', 'соломы', 'шерсти', 'хлопка'],
    styles: ['федора', 'с широкими полями', 'панама', 'с лентой'],
    price: [14000, 48000],
    maxItem: 3,
  }),
};

const M = {
  tshirt: t({ ...W.tshirt, sizes: SIZES.menClothing, noun: 'Футболка', styles: ['с логотипом', 'оверсайз', 'с принтом', 'базовая модель', 'с карманом'] }),
  polo: t({
    noun: 'Поло',
    image: 'top',
    sizes: SIZES.menClothing,
    materials: ['хлопка пике', 'хлопка', 'шерсти мериноса'],
    styles: ['с логотипом', 'с контрастной отделкой', 'классического кроя'],
    price: [14000, 45000],
  }),
  shirt: t({
    noun: 'Рубашка',
    image: 'top',
    sizes: SIZES.menClothing,
    materials: ['хлопка', 'льна', 'поплина', 'шёлка', 'фланели'],
    styles: ['оверсайз', 'приталенная', 'в полоску', 'в клетку', 'с воротником-стойкой'],
    price: [18000, 60000],
  }),
  trousers: t({ ...W.trousers, sizes: SIZES.menClothing, styles: ['со стрелками', 'чинос', 'карго', 'прямого кроя', 'зауженные'] }),
  jeans: t({ ...W.jeans, sizes: SIZES.menClothing, styles: ['прямого кроя', 'зауженные', 'свободного кроя', 'с потёртостями'] }),
  knit: t({ ...W.knit, sizes: SIZES.menClothing, noun: 'Свитер' }),
  hoodie: t({
    noun: 'Худи',
    image: 'sweater',
    sizes: SIZES.menClothing,
    materials: ['хлопка', 'футера', 'органического хлопка'],
    styles: ['с логотипом', 'оверсайз', 'на молнии', 'с принтом'],
    price: [22000, 70000],
  }),
  outerwear: t({
    noun: 'Куртка',
    image: 'coat',
    sizes: SIZES.menClothing,
    materials: ['нейлона', 'кожи', 'замши', 'шерсти', 'мембранной ткани'],
    styles: ['пуховая', 'бомбер', 'с капюшоном', 'стёганая', 'укороченная'],
    price: [55000, 250000],
  }),
  blazer: t({
    noun: 'Пиджак',
    image: 'coat',
    sizes: SIZES.menClothing,
    materials: ['шерсти', 'льна', 'кашемира', 'хлопка'],
    styles: ['однобортный', 'двубортный', 'приталенный', 'без подкладки'],
    price: [45000, 190000],
  }),
  sneakers: t({ ...W.sneakers, sizes: SIZES.menShoes }),
  boots: t({
    noun: 'Ботинки',
    image: 'boot',
    sizes: SIZES.menShoes,
    materials: ['кожи', 'замши', 'вощёной кожи'],
    styles: ['челси', 'на шнуровке', 'на тракторной подошве', 'дезерты'],
    modelNames: true,
    price: [45000, 130000],
  }),
  loafers: t({ ...W.loafersW, sizes: SIZES.menShoes, styles: ['с пряжкой', 'пенни', 'с кисточками', 'мокасины'] }),
  derby: t({
    noun: 'Дерби',
    image: 'loafer',
    sizes: SIZES.menShoes,
    materials: ['кожи', 'лакированной кожи', 'замши'],
    styles: ['на массивной подошве', 'классические', 'с перфорацией'],
    modelNames: true,
    price: [42000, 110000],
  }),
  sandals: t({
    noun: 'Сандалии',
    image: 'loafer',
    sizes: SIZES.menShoes,
    materials: ['кожи', 'замши', 'резины'],
    styles: ['с ремешками', 'слайдеры', 'с логотипом'],
    modelNames: true,
    price: [20000, 60000],
  }),
  messenger: t({ ...W.shoulderBag, styles: ['через плечо', 'мессенджер', 'с логотипом', 'компактная'] }),
  backpack: t({ ...W.backpackW, styles: ['с логотипом', 'городской', 'с клапаном', 'на молнии'] }),
  briefcase: t({
    noun: 'Портфель',
    image: 'tote',
    sizes: SIZES.one,
    materials: ['кожи', 'зернистой кожи', 'нейлона'],
    styles: ['классический', 'с двумя отделениями', 'для ноутбука'],
    modelNames: true,
    price: [80000, 260000],
    maxItem: 2,
  }),
  beltBag: t({
    noun: 'Поясная сумка',
    image: 'clutch',
    sizes: SIZES.one,
    materials: ['нейлона', 'кожи', 'канваса'],
    styles: ['с логотипом', 'с карманом', 'компактная'],
    modelNames: true,
    price: [35000, 110000],
    maxItem: 2,
  }),
  ring: t({
    ...W.ring,
    noun: 'Перстень',
    sizes: ['19', '19,5', '20', '20,5', '21', '22'],
    styles: ['с ониксом', 'с гравировкой', 'минималистичный', 'печатка'],
  }),
  bracelet: t({ ...W.bracelet, styles: ['цепочка', 'жёсткий', 'из бусин', 'с гравировкой'] }),
  chain: t({
    noun: 'Цепь',
    image: 'necklace',
    sizes: SIZES.one,
    materials: ['серебра', 'жёлтого золота', 'белого золота', 'стали'],
    styles: ['с подвеской', 'плетения «якорь»', 'плетения «кубинка»', 'тонкая'],
    modelNames: true,
    price: [25000, 300000],
    maxItem: 2,
  }),
  cufflinks: t({
    noun: 'Запонки',
    image: 'earrings',
    sizes: SIZES.one,
    materials: ['серебра', 'стали', 'жёлтого золота', 'белого золота'],
    styles: ['с эмалью', 'с ониксом', 'с логотипом', 'классические'],
    modelNames: true,
    price: [18000, 150000],
    maxItem: 2,
  }),
  belt: t({ ...W.belt }),
  sunglasses: t({ ...W.sunglasses, styles: ['авиаторы', 'в квадратной оправе', 'в круглой оправе', 'вайфареры'] }),
  scarf: t({ ...W.scarf, noun: 'Шарф', styles: ['с бахромой', 'в клетку', 'с монограммой', 'однотонный'] }),
  wallet: t({ ...W.wallet, noun: 'Бумажник', styles: ['с логотипом', 'складной', 'на молнии', 'компактный'] }),
  watch: t({ ...W.watch }),
  cap: t({
    noun: 'Бейсболка',
    image: 'hat',
    sizes: SIZES.one,
    materials: ['хлопка', 'шерсти', 'нейлона', 'денима'],
    styles: ['с логотипом', 'с вышивкой', 'с изогнутым козырьком'],
    price: [12000, 38000],
    maxItem: 3,
  }),
};

const K = {
  dress: t({ ...W.dress, sizes: SIZES.kidsClothing, styles: ['с оборками', 'с принтом', 'из тюля', 'с бантом'], price: [9000, 35000] }),
  tshirt: t({ ...W.tshirt, sizes: SIZES.kidsClothing, styles: ['с логотипом', 'с принтом', 'с аппликацией'], price: [5000, 15000] }),
  trousers: t({
    noun: 'Брюки',
    image: 'trousers',
    sizes: SIZES.kidsClothing,
    materials: ['хлопка', 'денима', 'футера'],
    styles: ['джоггеры', 'прямого кроя', 'на резинке'],
    price: [7000, 22000],
  }),
  knit: t({ ...W.knit, sizes: SIZES.kidsClothing, noun: 'Свитер', materials: ['хлопка', 'шерсти мериноса', 'кашемира'], price: [9000, 32000] }),
  outerwear: t({ ...M.outerwear, sizes: SIZES.kidsClothing, styles: ['пуховая', 'с капюшоном', 'стёганая', 'ветровка'], price: [20000, 80000] }),
  sneakers: t({ ...W.sneakers, sizes: SIZES.kidsShoes, styles: ['на липучках', 'с логотипом', 'светящиеся'], price: [12000, 38000] }),
  boots: t({ ...M.boots, sizes: SIZES.kidsShoes, styles: ['на липучках', 'утеплённые', 'челси'], price: [15000, 45000] }),
  sandals: t({ ...M.sandals, sizes: SIZES.kidsShoes, styles: ['на липучках', 'с ремешками'], price: [9000, 25000] }),
  backpack: t({ ...W.backpackW, styles: ['школьный', 'мини', 'с принтом'], price: [15000, 55000] }),
  bracelet: t({ ...W.bracelet, materials: ['серебра', 'серебра с эмалью'], styles: ['с подвеской', 'с именной пластиной', 'из бусин'], price: [6000, 25000] }),
  pendant: t({
    noun: 'Подвеска',
    image: 'necklace',
    sizes: SIZES.one,
    materials: ['серебра', 'серебра с эмалью', 'жёлтого золота'],
    styles: ['в форме сердца', 'со звездой', 'с гравировкой'],
    modelNames: true,
    price: [6000, 40000],
    maxItem: 2,
  }),
  cap: t({ ...M.cap, styles: ['с логотипом', 'с ушками', 'с вышивкой'], price: [5000, 16000] }),
  scarf: t({
    noun: 'Шарф',
    image: 'scarf',
    sizes: SIZES.one,
    materials: ['шерсти', 'кашемира', 'хлопка'],
    styles: ['с помпонами', 'в полоску', 'однотонный'],
    price: [5000, 18000],
  }),
  sunglasses: t({ ...W.sunglasses, styles: ['в круглой оправе', 'в цветной оправе'], price: [7000, 18000] }),
};

const leaf = (name: string, slug: string, type: ProductTypeDef, weight = 1): LeafDef => ({ name, slug, type, weight });

export const CATEGORY_TREE: readonly AudienceDef[] = [
  {
    audience: 'women',
    name: 'Женщинам',
    slug: 'zhenshchinam',
    icon: 'women',
    departments: [
      {
        department: 'clothing',
        name: 'Одежда',
        slug: 'zhenskaya-odezhda',
        icon: 'clothing',
        leaves: [
          leaf('Платья', 'platya', W.dress, 3),
          leaf('Юбки', 'yubki', W.skirt, 1.5),
          leaf('Брюки', 'bryuki', W.trousers, 1.5),
          leaf('Джинсы', 'dzhinsy', W.jeans),
          leaf('Блузки и рубашки', 'bluzki-i-rubashki', W.blouse, 1.5),
          leaf('Футболки и топы', 'futbolki-i-topy', W.tshirt, 1.5),
          leaf('Трикотаж', 'trikotazh', W.knit, 1.5),
          leaf('Верхняя одежда', 'verhnyaya-odezhda', W.coat, 1.5),
          leaf('Пиджаки и жакеты', 'pidzhaki-i-zhakety', W.jacket),
        ],
      },
      {
        department: 'shoes',
        name: 'Обувь',
        slug: 'zhenskaya-obuv',
        icon: 'shoes',
        leaves: [
          leaf('Кроссовки и кеды', 'krossovki-i-kedy', W.sneakers, 2),
          leaf('Туфли', 'tufli', W.pumps, 1.5),
          leaf('Ботильоны', 'botilony', W.ankleBoots),
          leaf('Сапоги', 'sapogi', W.boots),
          leaf('Босоножки', 'bosonozhki', W.sandals),
          leaf('Лоферы', 'lofery', W.loafersW),
        ],
      },
      {
        department: 'bags',
        name: 'Сумки',
        slug: 'zhenskie-sumki',
        icon: 'bags',
        leaves: [
          leaf('Сумки через плечо', 'sumki-cherez-plecho', W.shoulderBag, 2.5),
          leaf('Сумки-тоут', 'sumki-tout', W.tote, 1.5),
          leaf('Клатчи', 'klatchi', W.clutch),
          leaf('Рюкзаки', 'ryukzaki', W.backpackW, 0.7),
        ],
      },
      {
        department: 'jewellery',
        name: 'Украшения',
        slug: 'zhenskie-ukrasheniya',
        icon: 'jewellery',
        leaves: [
          leaf('Кольца', 'koltsa', W.ring),
          leaf('Серьги', 'sergi', W.earrings),
          leaf('Браслеты', 'braslety', W.bracelet),
          leaf('Колье и подвески', 'kole-i-podveski', W.necklace),
        ],
      },
      {
        department: 'accessories',
        name: 'Аксессуары',
        slug: 'zhenskie-aksessuary',
        icon: 'accessories',
        leaves: [
          leaf('Ремни', 'remni', W.belt, 0.7),
          leaf('Солнцезащитные очки', 'ochki', W.sunglasses),
          leaf('Платки и шарфы', 'platki-i-sharfy', W.scarf),
          leaf('Кошельки и картхолдеры', 'koshelki', W.wallet),
          leaf('Часы', 'chasy', W.watch, 0.6),
          leaf('Головные уборы', 'golovnye-ubory', W.hat, 0.6),
        ],
      },
    ],
  },
  {
    audience: 'men',
    name: 'Мужчинам',
    slug: 'muzhchinam',
    icon: 'men',
    departments: [
      {
        department: 'clothing',
        name: 'Одежда',
        slug: 'muzhskaya-odezhda',
        icon: 'clothing',
        leaves: [
          leaf('Футболки', 'futbolki', M.tshirt, 1.5),
          leaf('Поло', 'polo', M.polo),
          leaf('Рубашки', 'rubashki', M.shirt, 1.5),
          leaf('Брюки', 'bryuki', M.trousers),
          leaf('Джинсы', 'dzhinsy', M.jeans),
          leaf('Трикотаж', 'trikotazh', M.knit),
          leaf('Худи и свитшоты', 'hudi-i-svitshoty', M.hoodie),
          leaf('Верхняя одежда', 'verhnyaya-odezhda', M.outerwear, 1.5),
          leaf('Пиджаки и костюмы', 'pidzhaki-i-kostyumy', M.blazer),
        ],
      },
      {
        department: 'shoes',
        name: 'Обувь',
        slug: 'muzhskaya-obuv',
        icon: 'shoes',
        leaves: [
          leaf('Кроссовки и кеды', 'krossovki-i-kedy', M.sneakers, 2),
          leaf('Ботинки', 'botinki', M.boots),
          leaf('Лоферы и мокасины', 'lofery-i-mokasiny', M.loafers),
          leaf('Дерби и оксфорды', 'derbi-i-oksfordy', M.derby),
          leaf('Сандалии и шлёпанцы', 'sandalii', M.sandals, 0.6),
        ],
      },
      {
        department: 'bags',
        name: 'Сумки',
        slug: 'muzhskie-sumki',
        icon: 'bags',
        leaves: [
          leaf('Сумки через плечо', 'sumki-cherez-plecho', M.messenger),
          leaf('Рюкзаки', 'ryukzaki', M.backpack),
          leaf('Портфели', 'portfeli', M.briefcase, 0.6),
          leaf('Поясные сумки', 'poyasnye-sumki', M.beltBag, 0.6),
        ],
      },
      {
        department: 'jewellery',
        name: 'Украшения',
        slug: 'muzhskie-ukrasheniya',
        icon: 'jewellery',
        leaves: [
          leaf('Кольца', 'koltsa', M.ring, 0.6),
          leaf('Браслеты', 'braslety', M.bracelet, 0.6),
          leaf('Цепи и подвески', 'tsepi-i-podveski', M.chain, 0.6),
          leaf('Запонки', 'zaponki', M.cufflinks, 0.4),
        ],
      },
      {
        department: 'accessories',
        name: 'Аксессуары',
        slug: 'muzhskie-aksessuary',
        icon: 'accessories',
        leaves: [
          leaf('Ремни', 'remni', M.belt),
          leaf('Солнцезащитные очки', 'ochki', M.sunglasses),
          leaf('Шарфы', 'sharfy', M.scarf, 0.6),
          leaf('Кошельки и картхолдеры', 'koshelki', M.wallet),
          leaf('Часы', 'chasy', M.watch, 0.6),
          leaf('Головные уборы', 'golovnye-ubory', M.cap, 0.6),
        ],
      },
    ],
  },
  {
    audience: 'kids',
    name: 'Детям',
    slug: 'detyam',
    icon: 'kids',
    departments: [
      {
        department: 'clothing',
        name: 'Одежда',
        slug: 'detskaya-odezhda',
        icon: 'clothing',
        leaves: [
          leaf('Платья', 'platya', K.dress, 0.6),
          leaf('Футболки', 'futbolki', K.tshirt, 0.6),
          leaf('Брюки и джинсы', 'bryuki-i-dzhinsy', K.trousers, 0.5),
          leaf('Трикотаж', 'trikotazh', K.knit, 0.5),
          leaf('Верхняя одежда', 'verhnyaya-odezhda', K.outerwear, 0.6),
        ],
      },
      {
        department: 'shoes',
        name: 'Обувь',
        slug: 'detskaya-obuv',
        icon: 'shoes',
        leaves: [leaf('Кроссовки', 'krossovki', K.sneakers, 0.6), leaf('Ботинки', 'botinki', K.boots, 0.4), leaf('Сандалии', 'sandalii', K.sandals, 0.3)],
      },
      { department: 'bags', name: 'Сумки', slug: 'detskie-sumki', icon: 'bags', leaves: [leaf('Рюкзаки', 'ryukzaki', K.backpack, 0.4)] },
      {
        department: 'jewellery',
        name: 'Украшения',
        slug: 'detskie-ukrasheniya',
        icon: 'jewellery',
        leaves: [leaf('Браслеты', 'braslety', K.bracelet, 0.2), leaf('Подвески', 'podveski', K.pendant, 0.2)],
      },
      {
        department: 'accessories',
        name: 'Аксессуары',
        slug: 'detskie-aksessuary',
        icon: 'accessories',
        leaves: [
          leaf('Головные уборы', 'golovnye-ubory', K.cap, 0.3),
          leaf('Шарфы', 'sharfy', K.scarf, 0.2),
          leaf('Солнцезащитные очки', 'ochki', K.sunglasses, 0.2),
        ],
      },
    ],
  },
];

export interface ColorDef {
  name: string;
  slug: string;
  hex: string;
  /** Only metals for jewellery and watches; fabrics and leather get the rest. */
  metal?: boolean;
}

export const COLORS: readonly ColorDef[] = [
  { name: 'Чёрный', slug: 'black', hex: '#1d1d1f' },
  { name: 'Белый', slug: 'white', hex: '#f4f2ee' },
  { name: 'Бежевый', slug: 'beige', hex: '#d9c4a6' },
  { name: 'Коричневый', slug: 'brown', hex: '#7a5034' },
  { name: 'Серый', slug: 'grey', hex: '#9b9b9d' },
  { name: 'Тёмно-синий', slug: 'navy', hex: '#1f3358' },
  { name: 'Голубой', slug: 'light-blue', hex: '#9dbbd8' },
  { name: 'Зелёный', slug: 'green', hex: '#3f5f48' },
  { name: 'Красный', slug: 'red', hex: '#a3272d' },
  { name: 'Розовый', slug: 'pink', hex: '#e6b8c1' },
  { name: 'Бордовый', slug: 'burgundy', hex: '#5f1d29' },
  { name: 'Молочный', slug: 'cream', hex: '#eee4d3' },
  { name: 'Золотой', slug: 'gold', hex: '#c9a24e', metal: true },
  { name: 'Серебристый', slug: 'silver', hex: '#c3c4ca', metal: true },
];

/** Syllables for model names such as 'Arco', 'Velina'. */
export const MODEL_SYLLABLES = [
  'ar',
  'co',
  'la',
  'mi',
  'no',
  've',
  'ri',
  'sa',
  'lu',
  'na',
  'ti',
  'ra',
  'el',
  'do',
  'mo',
  'be',
  'ka',
  'ze',
  'lo',
  'vi',
] as const;

export const DESCRIPTION_OPENERS = [
  'Выразительная модель из новой коллекции',
  'Вещь, которая станет основой гардероба на много сезонов,',
  'Лаконичная модель с узнаваемым почерком',
  'Одна из самых востребованных моделей',
  'Культовый силуэт в новом прочтении',
  'Модель из капсульной коллекции',
];

export const DESCRIPTION_DETAILS = [
  'Выверенные пропорции и аккуратная отделка швов выдают работу мастеров, которые десятилетиями шьют для дома.',
  'Фурнитура выполнена из металла с матовым покрытием и не темнеет со временем.',
  'Материал приятен на ощупь, хорошо держит форму и не теряет цвет после чистки.',
  'Изделие упаковано в фирменную коробку и пыльник, в комплекте — бирки и сертификат подлинности.',
  'Модель легко сочетается как с повседневными, так и с вечерними образами.',
  'Детали продуманы до мелочей: от подкладки до логотипа на фурнитуре.',
];

export const CARE = [
  'Только профессиональная сухая чистка.',
  'Деликатная стирка при 30 °C, сушить в расправленном виде.',
  'Хранить в пыльнике, избегать прямых солнечных лучей и влаги.',
  'Протирать мягкой сухой тканью, использовать средства для ухода за кожей.',
];

export const FITS = ['Свободный крой', 'Приталенный силуэт', 'Классическая посадка', 'Оверсайз-силуэт', 'Прямой крой'];

export const MADE_IN = ['Италия', 'Франция', 'Испания', 'Португалия', 'Румыния', 'Швейцария', 'Великобритания'];
