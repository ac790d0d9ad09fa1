/**
 * The 19 TweetTopic topics described in our own words, as a household would write categories.
 * Used by bench/topics.ts to score zero-shot categorisation on ../shared/fixtures/labelled/tweet_topic_xl_dev200.jsonl.
 */
export const TOPIC_CATEGORIES = [
  { topic: 'Arts & Culture', description: 'Art, artists, museums, exhibitions, painting, theatre, literature, poetry, books, writers and cultural heritage.' },
  { topic: 'Business & Entrepreneurs', description: 'Companies, startups, founders, entrepreneurship, marketing, sales, investing, finance, the economy, jobs and money.' },
  { topic: 'Celebrity & Pop Culture', description: 'Celebrities, famous people, stars, gossip, influencers, fandoms, awards and pop culture.' },
  { topic: 'Diaries & Daily Life', description: 'Personal updates about everyday life: feelings, moods, plans, chores, the weather, work days and small daily moments.' },
  { topic: 'Family', description: 'Parents, mothers, fathers, children, babies, siblings, grandparents, family life and relatives.' },
  { topic: 'Fashion & Style', description: 'Clothes, outfits, fashion shows, designers, beauty, makeup, hair, style and shopping for looks.' },
  { topic: 'Film, TV & Video', description: 'Movies, cinema, television series, streaming shows, episodes, actors, trailers and online videos.' },
  { topic: 'Fitness & Health', description: 'Exercise, workouts, running, the gym, health, illness, medicine, doctors, diet, wellness and mental health.' },
  { topic: 'Food & Dining', description: 'Food, cooking, recipes, restaurants, meals, snacks, coffee, drinks and eating out.' },
  { topic: 'Gaming', description: 'Video games, gamers, consoles, PC gaming, esports, game releases and game streaming.' },
  { topic: 'Learning & Educational', description: 'Learning, education, teaching, courses, lessons, knowledge, facts, studying and how-to tutorials.' },
  { topic: 'Music', description: 'Songs, albums, bands, singers, rappers, concerts, tours, playlists and new music releases.' },
  { topic: 'News & Social Concern', description: 'News, politics, government, elections, laws, social issues, protests, crime, war and world events.' },
  { topic: 'Other Hobbies', description: 'Hobbies and pastimes such as crafts, collecting, gardening, pets, cars, photography, fishing and the outdoors.' },
  { topic: 'Relationships', description: 'Love, dating, crushes, friendships, romance, partners, marriage and how people treat each other.' },
  { topic: 'Science & Technology', description: 'Science, research, technology, computers, software, gadgets, phones, space, AI and engineering.' },
  { topic: 'Sports', description: 'Sports, teams, players, matches, games and scores in football, soccer, basketball, baseball, hockey, tennis and other athletics.' },
  { topic: 'Travel & Adventure', description: 'Travel, trips, holidays, vacations, destinations, flights, hotels, road trips and adventure.' },
  { topic: 'Youth & Student Life', description: 'Students, school, high school, college, university life, classes, exams, teachers and being young.' },
] as const
