// CommerceML's vocabulary. The format (1C's, published with its XSD) names its elements, attributes and
// fixed values in Russian; these are the format's own words, not interface text, so this one file is kept
// out of the no-Cyrillic-literal lint rule (eslint.config.js). Texts shown to people stay in src/lib/i18n.

/** Element and attribute names, by the role they play here. */
export const E = {
  root: 'КоммерческаяИнформация',
  version: 'ВерсияСхемы',
  formed: 'ДатаФормирования',
  classifier: 'Классификатор',
  catalogue: 'Каталог',
  offersPackage: 'ПакетПредложений',
  onlyChanges: 'СодержитТолькоИзменения',
  groups: 'Группы',
  group: 'Группа',
  properties: 'Свойства',
  property: 'Свойство',
  propertyOld: 'СвойствоНоменклатуры',
  variants: 'ВариантыЗначений',
  dictionary: 'Справочник',
  valueId: 'ИдЗначения',
  products: 'Товары',
  product: 'Товар',
  priceTypes: 'ТипыЦен',
  priceType: 'ТипЦены',
  offers: 'Предложения',
  offer: 'Предложение',
  document: 'Документ',
  id: 'Ид',
  name: 'Наименование',
  article: 'Артикул',
  description: 'Описание',
  htmlFormat: 'ФорматHTML',
  picture: 'Картинка',
  barcode: 'Штрихкод',
  maker: 'Изготовитель',
  propertyValues: 'ЗначенияСвойств',
  propertyValue: 'ЗначенияСвойства',
  value: 'Значение',
  requisites: 'ЗначенияРеквизитов',
  requisite: 'ЗначениеРеквизита',
  characteristics: 'ХарактеристикиТовара',
  characteristic: 'ХарактеристикаТовара',
  prices: 'Цены',
  price: 'Цена',
  priceTypeId: 'ИдТипаЦены',
  unitPrice: 'ЦенаЗаЕдиницу',
  currency: 'Валюта',
  quantity: 'Количество',
  warehouse: 'Склад',
  warehouseQuantity: 'КоличествоНаСкладе',
  rests: 'Остатки',
  rest: 'Остаток',
  status: 'Статус',
  deletionMark: 'ПометкаУдаления',
  number: 'Номер',
} as const;

/** What 1C calls the schema version setting of an exchange node (named in the refusal of another version). */
export const VERSION_SETTING = 'Версия схемы';

/** The status attribute's value of a product 1C deleted. */
export const DELETED = 'Удален';

/** Properties read as the brand, the colour and the size (Russian, Ukrainian, English, as shops name them). */
/**
 * A product's weight and size as 1C writes them (issue 38's parcels): the requisite "Вес" in kilograms (0
 * when nobody weighed it), or the properties "Габарит_Вес" (kilograms) and "Габарит_Длина", "_Ширина",
 * "_Высота" — in metres in the fixtures' exports (a rolled rug 0,71 × 0,2 × 0,2), so sides all within
 * GABARIT_METRES_MAX are read as metres and larger ones as centimetres.
 */
export const WEIGHT_REQUISITE = /^вес$/i;
export const GABARIT = {
  weight: /^габарит[_ ]?вес$/i,
  length: /^габарит[_ ]?длина$/i,
  width: /^габарит[_ ]?ширина$/i,
  height: /^габарит[_ ]?высота$/i,
} as const;
export const GABARIT_METRES_MAX = 3;
export const BRAND_PROPERTY = /^(производитель|виробник|бренд|brand|торговая марка|марка|vendor|manufacturer)$/i;
export const COLOR_PROPERTY = /^(цвет|колір|колир|color|colour)$/i;
export const SIZE_PROPERTY = /^(размер|розмір|size|размер обуви|размер одежды)$/i;
/** Currencies that are roubles, as 1C writes them: the ISO code, its number, the short name. */
export const ROUBLES = /^(rub|rur|643|руб\.?|рубль|российский рубль)$/i;
/** The retail price type, when the shop names none (EXCHANGE_PRICE_TYPE). */
export const RETAIL_PRICE_TYPE = /розн|retail/i;

/** Fixed values of the orders document (type=sale&mode=query). */
export const SALE = {
  operation: 'Заказ товара',
  seller: 'Продавец',
  buyer: 'Покупатель',
  contacts: 'Контакты',
  contact: 'Контакт',
  type: 'Тип',
  email: 'Почта',
  phone: 'ТелефонРабочий',
  counterparties: 'Контрагенты',
  counterparty: 'Контрагент',
  fullName: 'ПолноеНаименование',
  surname: 'Фамилия',
  firstName: 'Имя',
  role: 'Роль',
  address: 'АдресРегистрации',
  presentation: 'Представление',
  rate: 'Курс',
  sum: 'Сумма',
  date: 'Дата',
  time: 'Время',
  operationTag: 'ХозОперация',
  comment: 'Комментарий',
  baseUnit: 'БазоваяЕдиница',
  /** The piece (OKEI 796), as 1C's own documents write the base unit. */
  pieceAttributes: 'Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE"',
  unitShort: 'шт',
  discounts: 'Скидки',
  discount: 'Скидка',
  includedInSum: 'УчтеноВСумме',
  kindOfGoods: 'ВидНоменклатуры',
  typeOfGoods: 'ТипНоменклатуры',
  goods: 'Товар',
  service: 'Услуга',
  delivery: 'Доставка заказа',
  bonuses: 'Оплата бонусами и балансом',
  // A gift certificate is a means of payment (an advance the shop holds), not a discount (issue 56).
  certificate: 'Оплачено подарочным сертификатом',
  paymentMethod: 'Метод оплаты',
  deliveryMethod: 'Способ доставки',
  paid: 'Заказ оплачен',
  deliveryAllowed: 'Доставка разрешена',
  cancelled: 'Отменен',
  final: 'Финальный статус',
  orderStatus: 'Статус заказа',
  statusChanged: 'Дата изменения статуса',
  tracking: 'Трек-номер',
  // Delivery by a carrier (issue 38): free requisites, as Bitrix writes its delivery service's.
  deliveryService: 'Служба доставки',
  pickupPoint: 'Пункт выдачи',
  deliveryDates: 'Срок доставки',
  // A shipped marked unit's code (issue 39), one requisite per unit on its goods line: the code's bytes in
  // base64 (GS1.M, as the receipt carries it), since XML 1.0 cannot hold the separator ASCII 29 itself.
  markingCode: 'КодМаркировки',
  site: 'Сайт',
  card: 'Банковская карта',
  sbp: 'СБП',
  courier: 'Курьер',
  pickup: 'Самовывоз',
  post: 'Почта России',
} as const;

/** The order statuses as 1C's documents name them, and the shop's status each means (type=sale&mode=file). */
export const STATUS_WORDS: readonly [RegExp, 'processing' | 'purchased' | 'ready_to_ship' | 'shipped' | 'delivered' | 'cancelled'][] = [
  [/отмен/i, 'cancelled'],
  [/доставлен|выполнен|получен|завершен/i, 'delivered'],
  [/отгружен|отправлен|передан в доставку/i, 'shipped'],
  [/собран|готов к отгрузке|готов к отправке/i, 'ready_to_ship'],
  [/выкуплен|закуплен/i, 'purchased'],
  [/принят|в обработке|в работе|подтвержден/i, 'processing'],
];
/** Requisites of a document from 1C that carry its state. */
export const SALE_IN = {
  cancelled: /^отменен$/i,
  status: /^статус( заказа)?$/i,
  shippedOn: /^дата отгрузки( по 1с)?$/i,
  tracking: /^(трек-номер|номер отправления|трек номер|tracking)$/i,
};
