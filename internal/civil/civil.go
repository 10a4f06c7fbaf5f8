// Package civil reads XSD dates and dateTimes and numbers the days of the
// proleptic Gregorian calendar, so that the store's value index and the
// SPARQL engine accept, order and compare them the same way, over years
// time.Time does not reach.
package civil

// Days is the day number of a date, 0 on 1970-01-01 (H. Hinnant's
// algorithm; year 0 is 1 BCE as in XSD 1.1). Months and days out of range
// count on from the month's start, which keeps the number monotone over
// valid dates.
func Days(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
