Walkthrough.run()
